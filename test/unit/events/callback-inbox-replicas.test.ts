import { afterEach, describe, expect, it } from 'vitest';
import { callbackSchema } from '../../../src/contract/index.js';
import { createSilentLogger } from '../../../src/core/logger.js';
import { eventsQueueNameOf } from '../../../src/events/event-keys.js';
import { createCallbackInbox, type CallbackInbox } from '../../../src/events/event-queue.js';
import { NoReplicaError } from '../../../src/queue/redis/replicated-write.js';
import { useMasterAndReplica } from '../../helpers/master-and-replica.js';

const servers = useMasterAndReplica();
let inbox: CallbackInbox | undefined;
afterEach(async () => {
  await inbox?.close();
  inbox = undefined;
});

const TARGET = 'sim:callback-inbox-replicas';
const callback = callbackSchema.parse({ nonce: 'n-1', timestamp: '2026-11-23T09:59:30.000Z', webhookId: 42, scope: 'plan', scopeObjectId: 7, events: [] });

describe('the callback inbox behind replicas', () => {
  it('refuses a callback no replica took (the service sends it again), and takes it once a replica does', async () => {
    const prefix = servers.master.prefix();
    inbox = createCallbackInbox({
      connection: { host: '127.0.0.1', port: servers.master.port, maxRetriesPerRequest: null },
      prefix,
      target: TARGET,
      logger: createSilentLogger(),
      replicas: { count: 1, timeoutMs: 50 },
      replicaPatienceMs: 600,
    });
    // Answered 200, a callback is never sent again: without a replica it is refused, not acknowledged unreplicated.
    const refused = await inbox.add(callback).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(NoReplicaError);
    expect(refused).toMatchObject({ code: 'REDIS_NO_REPLICA' });

    await servers.replicaClient.replicaof('127.0.0.1', String(servers.master.port));
    for (const deadline = Date.now() + 10_000; !/master_link_status:up/.test(await servers.replicaClient.info('replication')); ) {
      if (Date.now() > deadline) throw new Error('the replica did not sync');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Its patience is short (0.6 s): on a loaded machine a try may still be refused, as the service would be told.
    let taken = false;
    for (let tries = 0; !taken && tries < 10; tries += 1) taken = await inbox.add(callback).then(() => true, (error: unknown) => (error instanceof NoReplicaError ? false : Promise.reject(error)));
    expect(taken).toBe(true);
    // The delivery taken again is the one job the refused attempt may have left on the master, now on the replica.
    const jobKeys = await servers.replicaClient.keys(`${prefix}:${eventsQueueNameOf(TARGET)}:c*`);
    expect(jobKeys.filter((key) => /:c[0-9a-f]{24}$/.test(key))).toHaveLength(1);
  });
});
