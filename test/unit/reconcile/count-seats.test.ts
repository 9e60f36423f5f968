import { describe, expect, it } from 'vitest';
import type { User } from '../../../src/contract/index.js';
import { countSeats, describeSeats } from '../../../src/reconcile/count-seats.js';

let id = 1;
const user = (extra: Partial<User>): User => ({ id: (id += 1), email: `u${id}@acme.example`, status: 'ACTIVE', ...extra });

describe('countSeats (docs/service.md#seats-follow-the-lifecycle)', () => {
  it('counts Members, Provisional Members and free seats, and deactivated users as holding no paid seat', () => {
    const count = countSeats([
      user({ seatType: 'MEMBER' }),
      user({ seatType: 'MEMBER' }),
      user({ seatType: 'PROVISIONAL_MEMBER' }),
      user({ seatType: 'CONTRIBUTOR' }),
      user({ seatType: 'GUEST' }),
      user({ status: 'DEACTIVATED', seatType: 'MEMBER' }),
      user({ unrecognized: [{ field: 'seatType', value: 'SUPER_SEAT' }] }),
    ]);
    expect(count).toEqual({ members: 2, provisionalMembers: 1, free: 2, deactivated: 1, unknown: 1 });
    expect(describeSeats(count)).toBe('2 Members, 1 Provisional Members, 2 free seats, 1 of a seat type seatflow does not know; 1 deactivated user holds no paid seat');
  });
});
