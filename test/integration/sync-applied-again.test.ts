import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { NoReplicaError } from '../../src/queue/redis/replicated-write.js';
import { SyncNotAcknowledgedError } from '../../src/sync/sync-not-acknowledged.js';
import { LEAVER, MOVER, moverToSales } from '../helpers/mover-to-sales.js';
import { changes, seatOf, useSyncHarnesses } from '../helpers/sync-harness.js';

describe('a sync applied again before its export was accepted', () => {
  const { open } = useSyncHarnesses();

  it('plans the people of its own workflows again and finds those workflows: the answer shows them, and the seat changes once', async () => {
    const { h, s } = await open();
    const redis = h.redisHandle.client;
    const { policy, nightTwo } = await moverToSales(h, s, true);
    // What night 1 accepted, to put back: night 2's submissions are kept, its acceptance is not (as when a submission
    // no Redis replica took is refused, after the workflows before it were kept).
    const acceptedKeys = (await redis.keys(`${h.prefix}*:sync:*`)).filter((key) => key.endsWith(':employees') || key.endsWith(':meta'));
    expect(acceptedKeys).toHaveLength(2);
    const night1 = await Promise.all(acceptedKeys.map(async (key) => [key, await redis.dumpBuffer(key)] as const));

    const two = await s.sync(nightTwo, policy, { acceptMissing: true });
    if (two.kind !== 'planned' || !two.disposition.applied) throw new Error('night 2 was not applied');
    const movers = two.applied?.movers;
    const offboarding = two.applied?.offboarding;
    expect([movers?.created, offboarding?.created]).toEqual([true, true]);
    for (const [key, dump] of night1) await redis.restore(key, 0, dump!, 'REPLACE');

    const again = await s.sync(nightTwo, policy, { acceptMissing: true });
    if (again.kind !== 'planned' || !again.disposition.applied) throw new Error('night 2 was not applied again');
    expect(again.plan.movers.map((mover) => mover.employee.email)).toEqual([MOVER]);
    expect(again.applied?.movers).toEqual({ workflowId: movers!.workflowId, created: false });
    // Its leaver too: leaving in the run's own offboarding is not "already leaving" elsewhere.
    expect(again.plan.leavers?.leavers.map((leaver) => [leaver.email, leaver.verdict, leaver.reason])).toEqual([[LEAVER, 'deactivate-on-date', undefined]]);
    expect(again.applied?.offboarding).toEqual({ workflowId: offboarding!.workflowId, created: false });

    s.o.startWorkers();
    await s.settleAll();
    expect(await changes(h, MOVER)).toEqual(['downgradeUser']);
    expect(seatOf(h, MOVER)).toBe('CONTRIBUTOR');
  });

  it('refused as not acknowledged, names its plan report, whose lines name the workflows it may be kept as; sent again, it finds them', async () => {
    const { h, s } = await open();
    const { policy, nightTwo } = await moverToSales(h, s, true);
    // The offboarding is kept on the master, and no replica took it in time (the movers' workflow is not made).
    const submit = s.o.system.submit.bind(s.o.system);
    s.o.system.submit = async (...args) => {
      await submit(...args);
      throw new NoReplicaError('REDIS_NO_REPLICA', 'no Redis replica took the workflow state within 10 s', { retryable: true });
    };
    const refused = await s.sync(nightTwo, policy, { acceptMissing: true }).then(() => undefined, (error: unknown) => error);
    s.o.system.submit = submit;
    expect(refused).toBeInstanceOf(SyncNotAcknowledgedError);
    const { report } = refused as SyncNotAcknowledgedError;
    const lines = parse(readFileSync(report.csv, 'utf8'), { columns: true }) as { kind: string; email: string; workflowId: string }[];
    const named = Object.fromEntries(lines.filter((line) => line.kind !== '').map((line) => [line.email, line.workflowId]));
    expect(named[LEAVER]).not.toBe('');
    expect(named[MOVER]).not.toBe('');
    // Sent again: the run finds the offboarding it kept, and makes the movers' workflow under the name it showed.
    const again = await s.sync(nightTwo, policy, { acceptMissing: true });
    if (again.kind !== 'planned' || !again.disposition.applied) throw new Error('night 2 was not applied again');
    expect(again.applied?.offboarding).toEqual({ workflowId: named[LEAVER], created: false });
    expect(again.applied?.movers).toEqual({ workflowId: named[MOVER], created: true });
  });
});
