import { describe, expect, it } from 'vitest';
import { reactivationSeatOf } from '../../../src/workflow/reactivation-seat.js';

const before = (seats: { planId: number; seatType?: string; isInternal?: boolean }[]) => ({ status: 'ACTIVE', seats, recordedAt: '2031-03-01T00:00:00.000Z' }) as unknown as Parameters<typeof reactivationSeatOf>[0];

describe('the seat an undo gives back after the reactivation', () => {
  it('gives back a lower seat of a plan the user is internal to (reactivation made it MEMBER)', () => {
    expect(reactivationSeatOf(before([{ planId: 1, seatType: 'VIEWER', isInternal: true }]))).toMatchObject({ restore: { planId: 1, seatType: 'CONTRIBUTOR' }, aboveBefore: false });
    // Recorded before isInternal was kept: taken as internal, as the service's help says of reactivation.
    expect(reactivationSeatOf(before([{ planId: 1, seatType: 'GUEST' }])).restore).toEqual({ planId: 1, seatType: 'GUEST' });
  });

  it('gives nothing back for a seat of a plan the user is external to: reactivation leaves it as it was', () => {
    // Found by the whole-system simulation (seed 4505): a GUEST seat "given back" by a downgrade that changed nothing.
    const seat = reactivationSeatOf(before([{ planId: 1, seatType: 'GUEST', isInternal: false }]));
    expect(seat.restore).toBeUndefined();
    expect(seat.aboveBefore).toBe(false);
    expect(seat.cost).toContain('nothing to give back');
  });
});
