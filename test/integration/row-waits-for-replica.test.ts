import { afterEach, describe, expect, it } from 'vitest';
import { createBatchHarness, FAST_RETRY, type BatchHarness } from '../helpers/batch-harness.js';
import { useMasterAndReplica } from '../helpers/master-and-replica.js';

const servers = useMasterAndReplica();
let h: BatchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a row whose in-flight marker reaches no replica', () => {
  it('sends nothing until a replica holds the marker (a failover may be under way), then runs once', async () => {
    h = await createBatchHarness(servers.master, { rateLimit: 'off' });
    const [email] = await h.deactivatableEmails(1);
    // Submitted while the harness waits for no replica (a submission without one is refused after its patience).
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', `${email},deactivate`])));
    const before = (await h.mutations()).length;
    // From now on a row's marker must reach one replica; there is none (as when the replica was just promoted).
    h.redisHandle.replicaAcks = { count: 1, timeoutMs: 100 };
    h.startWorkers({ concurrency: 1, policy: FAST_RETRY, requestSettleMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await h.mutations()).length).toBe(before);
    expect((await h.system.store.get(batch.id))?.state).not.toBe('finished');

    await servers.replicaClient.replicaof('127.0.0.1', String(servers.master.port));
    const done = await h.waitForState(batch.id, ['finished']);
    expect(done.counts).toMatchObject({ succeeded: 1 });
    const changes = (await h.mutations()).slice(before);
    expect(changes.map((m) => m.operation)).toEqual(['deactivateUser']);
    // The tries that sent nothing spent no attempt.
    expect((await h.outcomes(batch.id))[0]).toMatchObject({ outcome: 'succeeded', attempts: 1 });
  }, 60_000);
});
