import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../../src/core/logger.js';
import type { BatchPlan, PlannedRow } from '../../../../src/plan/planned-row.js';
import { createBatchSystem, type BatchSystem } from '../../../../src/queue/batch-system.js';
import type { RedisHandle } from '../../../../src/queue/redis/open-redis.js';
import { rowJobId } from '../../../../src/queue/row-job.js';
import { batchIdOf } from '../../../../src/queue/submit-batch.js';
import { useMasterAndReplica } from '../../../helpers/master-and-replica.js';

const servers = useMasterAndReplica();
let systems: BatchSystem[] = [];

afterEach(async () => {
  await Promise.all(systems.map((system) => system.close()));
  systems = [];
});

const TARGET = 'sim:replicated-submission';

/** A batch system over the master that wants one replica to hold a submission (WAIT 1 100, as behind Sentinel but shorter). */
function systemOverMaster(prefix: string): BatchSystem {
  const handle: RedisHandle = {
    kind: 'single',
    description: 'test master',
    replicaAcks: { count: 1, timeoutMs: 100 },
    client: servers.client,
    bullmqConnection: () => ({ host: '127.0.0.1', port: servers.master.port, maxRetriesPerRequest: null }),
    refusingWrites: () => undefined,
    close: async () => undefined,
  };
  const system = createBatchSystem({ redis: handle, prefix, target: TARGET, sim: true, logger: createSilentLogger() });
  systems.push(system);
  return system;
}

function planOf(sha256: string, emails: readonly string[]): BatchPlan {
  const rows: PlannedRow[] = emails.map((email, index) => ({
    row: index + 1,
    line: index + 2,
    action: { action: 'deactivate', user: { email } },
    actionName: 'deactivate',
    verdict: 'change',
    target: { email, userId: 100 + index },
  }));
  return { rows, summary: { total: rows.length, change: rows.length, 'no-op': 0, refused: 0, 'not-found': 0, conflict: 0, invalid: 0 }, apiCalls: 0, source: { path: '/leavers.csv', sha256, format: 'csv' } };
}

/** Waits until the master holds the batch as queued (a submission's attempt has finished), at most 10 s. */
async function queuedOnMaster(key: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await servers.client.hget(key, 'state')) !== 'queued') {
    if (Date.now() > deadline) throw new Error('the master never held the batch as queued: the submission was not made (again)');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('BatchSystem.submit behind replicas', () => {
  it('answers "created" for a batch it queued, though the repeats that wait for a replica find it there', async () => {
    const prefix = servers.master.prefix();
    const system = systemOverMaster(prefix);
    // No replica yet: the submission is made again until one comes and holds it.
    const submitted = system.submit(planOf('sha-kept', ['ann@acme.example', 'bo@acme.example']));
    await queuedOnMaster(system.keys.batch(batchIdOf('sha-kept', TARGET)));
    await new Promise((resolve) => setTimeout(resolve, 400));
    await servers.replicaClient.replicaof('127.0.0.1', servers.master.port);
    const answer = await submitted;
    expect(answer.created).toBe(true);
    expect(answer.jobsAdded).toBe(2);
    expect(await servers.replicaClient.hget(system.keys.batch(answer.batch.id), 'state')).toBe('queued');
  });

  it('makes the batch again when the master it reaches lost it, and the answer stays the first attempt\'s', async () => {
    const prefix = servers.master.prefix();
    const system = systemOverMaster(prefix);
    const batchId = batchIdOf('sha-lost', TARGET);
    const submitted = system.submit(planOf('sha-lost', ['cy@acme.example', 'di@acme.example', 'ed@acme.example']));
    await queuedOnMaster(system.keys.batch(batchId));
    // A failover to a replica that never got the submission: the master the servers.client reaches holds none of it. The
    // replica comes once the submission is made again (came sooner, it would hold the loss as the master's latest write).
    await servers.client.flushall();
    await queuedOnMaster(system.keys.batch(batchId));
    await servers.replicaClient.replicaof('127.0.0.1', servers.master.port);
    const answer = await submitted;
    expect(answer.created).toBe(true);
    expect(answer.jobsAdded).toBe(3);
    // Everything the operator was told is queued is on a replica: the record and one job per row.
    expect(await servers.replicaClient.hget(system.keys.batch(batchId), 'state')).toBe('queued');
    for (const row of [1, 2, 3]) expect(await servers.replicaClient.exists(`${prefix}:${system.queue.name}:${rowJobId(batchId, row)}`)).toBe(1);
  });
});
