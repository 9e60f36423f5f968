import { describe, expect, it } from 'vitest';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { createBatchStore } from '../../../src/queue/batch-store.js';
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
