import { describe, expect, it } from 'vitest';
import { createAuditLog } from '../../../src/governance/audit/audit-log.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { resendingScript } from '../../helpers/resending-script.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const testRedis = useTestRedisClient();

describe('appending to the audit trail when the answer was lost', () => {
  it('appends the entry once when Redis made it and the connection sent it again: no second entry chained on it', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    const log = createAuditLog(resendingScript(testRedis.client, 'seatflowAuditAppendOnce'), keys);
    const entry = await log.append({ event: 'change.requested', actor: 'hr', subject: 'b0123456789ab' });
    expect(entry.seq).toBe(1);
    expect(await testRedis.client.xlen(keys.auditLog)).toBe(1);
    expect(await log.head()).toMatchObject({ seq: 1, hash: entry.hash });
  });
});
