import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import { startReferenceServer, type RunningReferenceServer } from '../../../src/server/index.js';
import { seatChangeFor } from '../../../src/sync/seat-change.js';

let server: RunningReferenceServer;
let api: SmartsheetClient;

beforeAll(async () => {
  server = await startReferenceServer({ rateLimit: 'off', users: 40 });
  api = createSmartsheetClient({ baseUrl: server.url, accessToken: server.tokens.admin });
});
afterAll(async () => {
  await api.close();
  await server.close();
});

describe('seatChangeFor', () => {
  it('keeps the seat it read as the row\'s seat before, so the row reads nothing again for its revert', async () => {
    const user = [...server.context.state.users.values()].find((candidate) => candidate.status === 'ACTIVE' && candidate.admin !== true && candidate.seats.length === 1 && candidate.seats[0]?.seatType === 'MEMBER');
    if (user === undefined) throw new Error('no active single-plan Member in the organization');
    const planId = user.seats[0]!.planId;
    const change = await seatChangeFor(api, { row: 1, line: 2, email: user.email, userId: user.id }, planId, 'CONTRIBUTOR');
    expect(change.kind).toBe('row');
    if (change.kind !== 'row') return;
    expect(change.row.action).toMatchObject({ action: 'downgrade', planId });
    expect(change.row.target).toEqual({ userId: user.id, email: user.email, planId, seatBefore: { seatType: 'MEMBER', admin: false } });
  });
});
