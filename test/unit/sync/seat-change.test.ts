import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import { startReferenceServer, type RunningReferenceServer } from '../../../src/server/index.js';
import { countCalls } from '../../../src/plan/count-calls.js';
import { judgeSeatChange, seatChangeFor } from '../../../src/sync/seat-change.js';

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

/** The service clock of these reads: a fixed instant, so that the rows' readings can be compared. */
const READ_AT = Date.parse('2026-11-29T04:00:00.000Z');
const clock = () => READ_AT;

describe('seatChangeFor', () => {
  it('keeps the seat it read, and when, as the row\'s seat before: a row run while that reading stands reads nothing again', async () => {
    const user = [...server.context.state.users.values()].find((candidate) => candidate.status === 'ACTIVE' && candidate.admin !== true && candidate.seats.length === 1 && candidate.seats[0]?.seatType === 'MEMBER');
    if (user === undefined) throw new Error('no active single-plan Member in the organization');
    const planId = user.seats[0]!.planId;
    const change = await seatChangeFor(api, { row: 1, line: 2, email: user.email, userId: user.id }, planId, 'CONTRIBUTOR', clock);
    expect(change.kind).toBe('row');
    if (change.kind !== 'row') return;
    expect(change.row.action).toMatchObject({ action: 'downgrade', planId });
    expect(change.row.target).toEqual({
      userId: user.id,
      email: user.email,
      planId,
      seatBefore: { seatType: 'MEMBER', admin: false },
      // The reading in the shape the downgrade job reads for itself: no admin flag, as the row leaves it as it is.
      readAtPlan: { readAt: new Date(READ_AT).toISOString(), state: { planId, seatType: 'MEMBER' } },
    });
  });

  it('judges on a reading it is given exactly as on the service read now, and makes no call', async () => {
    const user = [...server.context.state.users.values()].find((candidate) => candidate.status === 'ACTIVE' && candidate.admin !== true && candidate.seats.length === 1 && candidate.seats[0]?.seatType === 'MEMBER');
    if (user === undefined) throw new Error('no active single-plan Member in the organization');
    const seat = user.seats[0]!;
    const subject = { row: 1, line: 2, email: user.email, userId: user.id };
    const read = await seatChangeFor(api, subject, seat.planId, 'CONTRIBUTOR', clock);
    const judged = judgeSeatChange(subject, seat.planId, 'CONTRIBUTOR', { status: 'ACTIVE', admin: false, plans: [{ planId: seat.planId, seatType: 'MEMBER', isInternal: seat.isInternal }], readAt: new Date(READ_AT).toISOString() });
    expect(judged).toEqual(read);
    expect(judgeSeatChange(subject, seat.planId, 'CONTRIBUTOR', { status: 'PENDING', admin: false, plans: [{ planId: seat.planId, seatType: 'MEMBER' }], readAt: new Date(READ_AT).toISOString() })).toMatchObject({ kind: 'skip' });
  });

  it('reads only the plans when the status and admin flag are known (an add just answered them)', async () => {
    const user = [...server.context.state.users.values()].find((candidate) => candidate.status === 'ACTIVE' && candidate.admin !== true && candidate.seats.length === 1);
    if (user === undefined) throw new Error('no active single-plan user in the organization');
    const counted = countCalls(api);
    await seatChangeFor(counted.api, { row: 1, line: 2, email: user.email, userId: user.id }, user.seats[0]!.planId, 'MEMBER', clock, undefined, { status: 'ACTIVE', admin: false });
    expect(counted.calls()).toBe(1);
  });
});
