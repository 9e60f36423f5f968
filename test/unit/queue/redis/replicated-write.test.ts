import { describe, expect, it } from 'vitest';
import { createSilentLogger, type Logger } from '../../../../src/core/logger.js';
import { createReplicatedWrites, NoReplicaError } from '../../../../src/queue/redis/replicated-write.js';
import { useMasterAndReplica } from '../../../helpers/master-and-replica.js';

const servers = useMasterAndReplica();


/** A logger that keeps the messages of its warnings. */
function warningsOf(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger = createSilentLogger();
  logger.warn = ((_fields: unknown, message?: string) => void warnings.push(message ?? '')) as Logger['warn'];
  return { logger, warnings };
}

describe('createReplicatedWrites', () => {
  it('makes a write once where there are no replicas to wait for', async () => {
    let writes = 0;
    const writer = createReplicatedWrites({ redis: servers.client, replicas: { count: 0, timeoutMs: 0 }, logger: createSilentLogger(), what: 'test' });
    expect(await writer.write('k0', async () => void (writes += 1))).toBe(true);
    expect(writes).toBe(1);
  });

  it('makes the write again while no replica takes it, then goes on without waiting for a while, and says so once', async () => {
    let writes = 0;
    const { logger, warnings } = warningsOf();
    let clock = 0;
    const writer = createReplicatedWrites({ redis: servers.client, replicas: { count: 1, timeoutMs: 20 }, logger, what: 'test', patienceMs: 300, now: () => (clock += 50) });
    const write = async () => {
      writes += 1;
      await servers.client.set('k1', String(writes));
    };
    expect(await writer.write('k1', write)).toBe(false);
    expect(writes).toBeGreaterThan(1);
    expect(warnings).toHaveLength(1);
    // Replicas were found missing a moment ago: the next write is made once, with no wait.
    const before = writes;
    expect(await writer.write('k1', write)).toBe(false);
    expect(writes).toBe(before + 1);
    expect(warnings).toHaveLength(1);
    // A replica back: the next write, made once, finds it at a glance, and the quiet ends (a failover may come soon).
    await servers.replicaClient.replicaof('127.0.0.1', String(servers.master.port));
    for (const deadline = Date.now() + 10_000; !/master_link_status:up/.test(await servers.replicaClient.info('replication')); ) {
      if (Date.now() > deadline) throw new Error('the replica did not sync');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const quietClock = clock;
    // A glance is short: on a loaded machine the replica's answer may miss a few.
    let taken = false;
    for (let tries = 0; !taken && tries < 10; tries += 1) taken = await writer.write('k1', write);
    expect(taken).toBe(true);
    // Well within the 30 s quiet period on the writer's clock: the glance ended it, not the time.
    expect(clock - quietClock).toBeLessThan(1_000);
    expect(await servers.replicaClient.get('k1')).toBe(String(writes));
  });

  it('refuses a required write no replica takes, even while other writes go on without waiting', async () => {
    let writes = 0;
    let clock = 0;
    const writer = createReplicatedWrites({ redis: servers.client, replicas: { count: 1, timeoutMs: 20 }, logger: warningsOf().logger, what: 'batch submission', patienceMs: 300, now: () => (clock += 50) });
    const write = async () => {
      writes += 1;
      await servers.client.set('k3', String(writes));
    };
    const refusal = writer.write('k3', write, { required: true });
    await expect(refusal).rejects.toBeInstanceOf(NoReplicaError);
    await expect(refusal).rejects.toThrow(/^no Redis replica took the batch submission within 0.3 s, so it is not acknowledged/);
    expect(writes).toBeGreaterThan(1);
    // Replicas were found missing: a write that is not required goes on at once, a required one still waits, and is refused.
    expect(await writer.write('k3', write)).toBe(false);
    const before = writes;
    await expect(writer.write('k3', write, { required: true })).rejects.toThrow(NoReplicaError);
    expect(writes).toBeGreaterThan(before + 1);
  });

  it('answers once a replica holds the write: at once with a replica in place, and after writing again when one comes', async () => {
    let writes = 0;
    const write = async () => {
      writes += 1;
      await servers.client.set('k2', 'v');
    };
    // No replica yet: the write is made again until one comes and takes it.
    const writer = createReplicatedWrites({ redis: servers.client, replicas: { count: 1, timeoutMs: 100 }, logger: createSilentLogger(), what: 'test', patienceMs: 30_000 });
    const written = writer.write('k2', write);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await servers.replicaClient.replicaof('127.0.0.1', servers.master.port);
    expect(await written).toBe(true);
    expect(writes).toBeGreaterThan(1);
    expect(await servers.replicaClient.get('k2')).toBe('v');

    // With the replica in place, a write it takes is made once (a wait long enough for a loaded machine: WAIT answers
    // as soon as the replica acknowledges).
    const patient = createReplicatedWrites({ redis: servers.client, replicas: { count: 1, timeoutMs: 10_000 }, logger: createSilentLogger(), what: 'test' });
    const now = writes;
    expect(await patient.write('k2', write)).toBe(true);
    expect(writes).toBe(now + 1);
  });
});
