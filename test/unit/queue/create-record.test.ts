import { describe, expect, it } from 'vitest';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { createBatchStore } from '../../../src/queue/batch-store.js';
import { createOffboardingRecords } from '../../../src/workflow/workflow-store.js';
import { resendingScript } from '../../helpers/resending-script.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const testRedis = useTestRedisClient();

const batch = (createdAt: string) => ({ id: 'b0123456789ab', source: 'leavers.csv', sha256: 'f'.repeat(64), createdAt, total: 2, queued: 2, sim: true, target: 'sim:http://127.0.0.1:1', queueName: '{rows-test}' });

describe('creating a batch record', () => {
  it('is this submission\'s when Redis made it and the connection sent it again after losing the answer', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    const store = createBatchStore(resendingScript(testRedis.client, 'seatflowCreateRecord'), keys);
    expect(await store.create(batch('2026-11-30T10:00:00.000Z'), Date.parse('2026-11-30T10:00:00.000Z'))).toBe(true);
    expect(await store.get('b0123456789ab')).toMatchObject({ state: 'submitting', total: 2, createdAt: '2026-11-30T10:00:00.000Z' });
    expect(await testRedis.client.zrange(keys.batches, 0, -1)).toEqual(['b0123456789ab']);
  });

  it('is refused to a second submission of the same id, whose record stays the first\'s, whole', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    const store = createBatchStore(testRedis.client, keys);
    expect(await store.create(batch('2026-11-30T10:00:00.000Z'), 1)).toBe(true);
    expect(await store.create(batch('2026-11-30T10:00:01.000Z'), 2)).toBe(false);
    expect(await store.get('b0123456789ab')).toMatchObject({ state: 'submitting', createdAt: '2026-11-30T10:00:00.000Z' });
  });
});

describe('creating a workflow record', () => {
  const workflow = { id: 'w0123456789ab', source: 'leavers.csv', sha256: 'f'.repeat(64), createdAt: '2026-11-30T10:00:00.000Z', target: 'sim:http://127.0.0.1:1', sim: true, total: 1, holdMs: 0, removeFromSharing: false, deactivateBatch: 'w0123456789ab-d', removeBatch: 'w0123456789ab-r', reactivateBatch: 'w0123456789ab-a' };

  it('lists it in the same write: a process that dies right after the record is written leaves it listed', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    // A client whose process dies at any write after the record's (a separate ZADD would be one).
    const dying = new Proxy(testRedis.client, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop === 'zadd') return () => Promise.reject(new Error('the process died'));
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    expect(await createOffboardingRecords(dying, keys).create(workflow, Date.parse(workflow.createdAt))).toBe(true);
    const records = createOffboardingRecords(testRedis.client, keys);
    expect((await records.list()).map((record) => record.id)).toEqual(['w0123456789ab']);
    expect(await records.get('w0123456789ab')).toMatchObject({ state: 'submitting', total: 1 });
  });

  it('is this submission\'s, listed once, when Redis made it and the connection sent it again', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    expect(await createOffboardingRecords(resendingScript(testRedis.client, 'seatflowCreateRecord'), keys).create(workflow, 1)).toBe(true);
    expect(await testRedis.client.zrange(keys.workflows, 0, -1, 'WITHSCORES')).toEqual(['w0123456789ab', '1']);
    expect(await createOffboardingRecords(testRedis.client, keys).create({ ...workflow, createdAt: '2026-11-30T10:00:01.000Z' }, 2)).toBe(false);
  });
});
