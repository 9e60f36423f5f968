import type { User } from '../contract/index.js';

/** The seats of one plan's users, as a true-up counts them. */
export interface SeatCount {
  /** Paid Member seats. */
  members: number;
  /** Provisional Members: free until their review period ends, then a free seat unless upgraded. */
  provisionalMembers: number;
  /** CONTRIBUTOR (VIEWER) and GUEST seats. */
  free: number;
  /** Deactivated users: they hold no paid seat (docs/service.md#seats-follow-the-lifecycle), whatever a listing says. */
  deactivated: number;
  /** Users whose seat type seatflow does not know (docs/service.md#reading-leniently). */
  unknown: number;
}

/** Counts seats the way the service bills them: deactivation takes the Member seat away. */
export function countSeats(users: readonly User[]): SeatCount {
  const count: SeatCount = { members: 0, provisionalMembers: 0, free: 0, deactivated: 0, unknown: 0 };
  for (const user of users) {
    if (user.status === 'DEACTIVATED') count.deactivated += 1;
    else if (user.seatType === 'MEMBER') count.members += 1;
    else if (user.seatType === 'PROVISIONAL_MEMBER') count.provisionalMembers += 1;
    else if (user.seatType === undefined) count.unknown += 1;
    else count.free += 1;
  }
  return count;
}

/** The count in one line: `12 Members, 3 Provisional Members, 40 free seats; 5 deactivated users hold none`. */
export function describeSeats(count: SeatCount): string {
  const parts = [`${count.members} Members`, `${count.provisionalMembers} Provisional Members`, `${count.free} free seats`];
  if (count.unknown > 0) parts.push(`${count.unknown} of a seat type seatflow does not know`);
  return `${parts.join(', ')}; ${count.deactivated} deactivated user${count.deactivated === 1 ? '' : 's'} hold${count.deactivated === 1 ? 's' : ''} no paid seat`;
}
