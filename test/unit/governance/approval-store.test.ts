import { describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../../../src/governance/approvals/approval-record.js';
import { createApprovalStore } from '../../../src/governance/approvals/approval-store.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { resendingScript } from '../../helpers/resending-script.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const testRedis = useTestRedisClient();

const request: ApprovalRecord = {
  id: 'b0123456789ab',
  kind: 'batch',
  subject: 'leavers.csv',
  target: 'sim:http://127.0.0.1:1',
  sim: true,
  state: 'awaiting-approval',
  version: 0,
  requestedBy: { name: 'hr', role: 'operator', via: 'cli' },
  requestedAt: '2026-11-30T09:00:00.000Z',
  planHash: 'h1',
  summary: { change: 1 },
  changes: 1,
  destructive: 1,
  why: ['the kind needs approval'],
  guardrails: [],
  history: [],
};

describe('the approval store\'s compare-and-set', () => {
  it('takes the change Redis made for its own when the connection sent it again after losing the answer', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    const store = createApprovalStore(resendingScript(testRedis.client, 'seatflowApprovalReplace'), keys);
    expect(await store.create(request, [], {})).toBe(true);
    expect(await store.replace(request, { state: 'rejected', rejectedBy: 'it' })).toMatchObject({ state: 'rejected', version: 1 });
    // Another change over the version it read is still refused: someone else acted on that state first.
    expect(await store.replace(request, { state: 'approved', approvedBy: 'ops' })).toBeUndefined();
    expect(await store.get(request.id)).toMatchObject({ state: 'rejected', version: 1 });
  });
});

describe('the approval store\'s create', () => {
  it('creates and lists a request whose SET ioredis sent again after losing its answer', async () => {
    const keys = createQueueKeys(testRedis.server.prefix());
    const store = createApprovalStore(resendingScript(testRedis.client, 'set'), keys);
    expect(await store.create(request, [], {})).toBe(true);
    expect((await store.list()).map((r) => r.id)).toEqual([request.id]);
    // Another request under the same id is still refused.
    expect(await store.create({ ...request, subject: 'other.csv' }, [], {})).toBe(false);
    expect(await store.get(request.id)).toMatchObject({ subject: 'leavers.csv' });
  });
});
