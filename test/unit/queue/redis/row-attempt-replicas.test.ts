import { describe, expect, it } from 'vitest';
import { createQueueKeys } from '../../../../src/queue/queue-keys.js';
import { QUIET_PROBE_MS } from '../../../../src/queue/redis/replicated-write.js';
import { createRowAttempts } from '../../../../src/queue/row-attempt.js';
import { useMasterAndReplica } from '../../../helpers/master-and-replica.js';

const servers = useMasterAndReplica();

/** The milliseconds each WAIT the master runs from now on asks for, as its MONITOR shows them. */
async function watchWaits(): Promise<{ asked: number[]; stop: () => void }> {
  // monitor() opens a connection of its own (a duplicate of the client), which stop() closes.
  const monitor = await servers.client.monitor();
  const asked: number[] = [];
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args[0]?.toUpperCase() === 'WAIT') asked.push(Number(args[2]));
  });
  return { asked, stop: () => monitor.disconnect() };
}

/** The WAITs seen once `count` have come through (MONITOR reports each a moment after the server ran it). */
async function settled(waits: { asked: number[] }, count: number): Promise<number[]> {
  for (const deadline = Date.now() + 5000; waits.asked.length < count && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
  return waits.asked;
}

describe('a row attempt with replicas wanted', () => {
  it('waits for a replica while one may only be slow, glances only while replicas are missing, and waits again once one is back', async () => {
    const waits = await watchWaits();
    let clock = 0;
    const attempts = createRowAttempts(servers.client, createQueueKeys(`rq${process.pid}`), { count: 1, timeoutMs: 100 }, () => clock);
    const start = (row: number) => attempts.start('b1', row, { settleMs: 0, countAttempt: true });
    // Rows 1-3 over 12 s of missing replica: each waits the whole wait (a lag of a busy replica must not turn it off).
    for (const [row, at] of [[1, 0], [2, 6_000], [3, 12_000]] as const) {
      clock = at;
      expect(await start(row)).toMatchObject({ kind: 'go', replicated: false, waitedForReplicas: true });
    }
    // Missing for longer than the patience: the next rows, within 30 s, only glance for a replica.
    for (let row = 4; row <= 5; row += 1) {
      clock += 5_000;
      expect(await start(row)).toMatchObject({ kind: 'go', replicated: false, waitedForReplicas: false });
    }
    expect(await settled(waits, 5)).toEqual([100, 100, 100, QUIET_PROBE_MS, QUIET_PROBE_MS]);
    // A replica back: the next glance finds it (the quiet period ends at once), and the row after waits as before.
    await servers.replicaClient.replicaof('127.0.0.1', String(servers.master.port));
    let row = 6;
    let back: Awaited<ReturnType<typeof start>> | undefined;
    // The replica takes a moment to sync: until then the rows glance on.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; row += 1) {
      back = await start(row);
      if (back.replicated) break;
    }
    expect(back).toMatchObject({ replicated: true, waitedForReplicas: false });
    // Whether the replica answers within the wait depends on the machine's load; that the row waited, does not.
    expect(await start(row + 1)).toMatchObject({ waitedForReplicas: true });
    // Rows 1-5, the glances of rows 6..row, and the wait of row + 1.
    expect((await settled(waits, row + 1)).at(-1)).toBe(100);
    waits.stop();
  });
});
