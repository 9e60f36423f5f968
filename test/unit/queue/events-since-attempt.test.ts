import { describe, expect, it } from 'vitest';
import { describeVerdict, judgeEventsSinceAttempt, REMOVAL_EVENTS, SEAT_EVENTS, STATUS_EVENTS, type HeardEvent } from '../../../src/queue/events-since-attempt.js';

const DEACTIVATE = { change: ['user.deactivated'], sameAttribute: STATUS_EVENTS };
const ownDeactivation: HeardEvent = { event: 'user.deactivated', by: 'seatflow', at: '2026-11-23T10:00:00.000Z', summary: 'jordan.lee@acme.example user.deactivated by seatflow' };
const reactivatedByElena: HeardEvent = { event: 'user.reactivated', by: 'outside', at: '2026-11-23T10:05:00.000Z', summary: 'jordan.lee@acme.example was reactivated by elena.garcia@acme.example at 2026-11-23T10:05:00.000Z' };
const seatByElena: HeardEvent = { event: 'user.seatType.updated', by: 'outside', at: '2026-11-23T10:06:00.000Z', summary: 'jordan.lee@acme.example was given the seat MEMBER by elena.garcia@acme.example' };

describe('judgeEventsSinceAttempt', () => {
  it("says a lost deactivation landed when seatflow's own event came, and names the reactivation made outside since", () => {
    const verdict = judgeEventsSinceAttempt([ownDeactivation, { ...ownDeactivation, event: 'user.seatType.updated' }, reactivatedByElena, seatByElena], DEACTIVATE);
    expect(verdict).toEqual({ kind: 'landed', own: ownDeactivation, since: reactivatedByElena });
    expect(describeVerdict(verdict as Exclude<typeof verdict, { kind: 'nothing-heard' }>)).toBe(
      "done by this batch (the answer was lost; the service's user.deactivated event of 2026-11-23T10:00:00.000Z confirms it); since then jordan.lee@acme.example was reactivated by elena.garcia@acme.example at 2026-11-23T10:05:00.000Z, outside seatflow: not done again",
    );
  });

  it("takes this change made by seatflow's own account as the row's, even when no call of seatflow explained it", () => {
    const unexplained: HeardEvent = { ...ownDeactivation, by: 'own-account' };
    expect(judgeEventsSinceAttempt([unexplained, reactivatedByElena], DEACTIVATE)).toEqual({ kind: 'landed', own: unexplained, since: reactivatedByElena });
  });

  it('says someone else decided when an outside change of the status came and none of seatflow', () => {
    expect(judgeEventsSinceAttempt([reactivatedByElena], DEACTIVATE)).toEqual({ kind: 'changed-elsewhere', outside: reactivatedByElena });
  });

  it('hears nothing from events of other attributes, or from an outside event of the change seatflow did not make', () => {
    expect(judgeEventsSinceAttempt([seatByElena], DEACTIVATE)).toEqual({ kind: 'nothing-heard' });
    expect(judgeEventsSinceAttempt([], DEACTIVATE)).toEqual({ kind: 'nothing-heard' });
    expect(judgeEventsSinceAttempt([{ ...ownDeactivation, event: 'user.reactivated' }], DEACTIVATE)).toEqual({ kind: 'nothing-heard' });
  });

  describe('a seat change (an upgrade or a downgrade) in its plan', () => {
    const DOWNGRADE_IN_7 = { change: SEAT_EVENTS, sameAttribute: SEAT_EVENTS, seat: { planId: 7, seatType: 'CONTRIBUTOR' } };
    const seat = (by: HeardEvent['by'], planId: number, seatType: string, at: string): HeardEvent => ({ event: 'user.seatType.updated', by, at, summary: `jordan.lee@acme.example user.seatType.updated ${seatType} at ${at}`, planId, seatType });
    const ownDowngrade = seat('seatflow', 7, 'VIEWER', '2026-11-23T10:00:00.000Z');
    const upgradedBack = seat('outside', 7, 'MEMBER', '2026-11-23T10:05:00.000Z');

    it("says the downgrade landed from seatflow's event giving that seat in that plan (VIEWER and CONTRIBUTOR are one seat), and names the upgrade since", () => {
      expect(judgeEventsSinceAttempt([ownDowngrade, upgradedBack], DOWNGRADE_IN_7)).toEqual({ kind: 'landed', own: ownDowngrade, since: upgradedBack });
    });

    it("does not take seatflow's event of another seat, or of another plan, for the row's own", () => {
      const otherSeat = seat('seatflow', 7, 'GUEST', '2026-11-23T10:00:00.000Z');
      const otherPlan = seat('seatflow', 8, 'CONTRIBUTOR', '2026-11-23T10:00:00.000Z');
      expect(judgeEventsSinceAttempt([otherSeat, otherPlan], DOWNGRADE_IN_7)).toEqual({ kind: 'nothing-heard' });
      expect(judgeEventsSinceAttempt([otherPlan, upgradedBack], DOWNGRADE_IN_7)).toEqual({ kind: 'changed-elsewhere', outside: upgradedBack });
    });

    it("does not take the seat event of a deactivation (same user, same instant) for the downgrade's own", () => {
      const deactivation: HeardEvent = { ...ownDeactivation, at: ownDowngrade.at };
      expect(judgeEventsSinceAttempt([deactivation, ownDowngrade], DOWNGRADE_IN_7)).toEqual({ kind: 'nothing-heard' });
      // The downgrade's own event a moment later is still the row's.
      const later = seat('seatflow', 7, 'CONTRIBUTOR', '2026-11-23T10:00:01.000Z');
      expect(judgeEventsSinceAttempt([deactivation, ownDowngrade, later], DOWNGRADE_IN_7)).toEqual({ kind: 'landed', own: later });
    });

    it("hears nothing from an outside seat change in another plan, or from the user's status events", () => {
      expect(judgeEventsSinceAttempt([seat('outside', 8, 'MEMBER', '2026-11-23T10:05:00.000Z'), reactivatedByElena], DOWNGRADE_IN_7)).toEqual({ kind: 'nothing-heard' });
    });
  });

  it('says a lost removal landed from its event, and names the addition that brought the person back since', () => {
    const ownRemoval: HeardEvent = { ...ownDeactivation, event: 'user.removed' };
    const addedBack: HeardEvent = { ...reactivatedByElena, event: 'user.added', summary: 'jordan.lee@acme.example was added by elena.garcia@acme.example' };
    expect(judgeEventsSinceAttempt([ownRemoval, reactivatedByElena, addedBack], REMOVAL_EVENTS)).toEqual({ kind: 'landed', own: ownRemoval, since: addedBack });
    expect(judgeEventsSinceAttempt([reactivatedByElena], REMOVAL_EVENTS)).toEqual({ kind: 'nothing-heard' });
  });
});
