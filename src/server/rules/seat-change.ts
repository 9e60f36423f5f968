import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import type { PlanSeat, UserRecord } from '../state/records.js';

type StoredSeat = PlanSeat['seatType'];

/** Result of a seat-change check: the seat to set, or null when it is already held (answered 200, no change). */
export interface SeatChange {
  target: StoredSeat;
  changed: boolean;
  clearAdmin: boolean;
}

function parseTarget(value: unknown, allowed: readonly string[], fallback?: StoredSeat): StoredSeat {
  if (value === undefined || value === null || value === '') {
    if (fallback !== undefined) return fallback;
    throw ApiError.badRequest(CODES.requiredAttributeMissing, 'Required object attribute(s) are missing: seatType');
  }
  const text = String(value).toUpperCase();
  if (!allowed.includes(text)) {
    throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid seatType ${String(value)}; expected one of ${allowed.join(', ')}.`);
  }
  // CONTRIBUTOR is VIEWER's newer name (docs/service.md#seat-types); the seat is stored under one name.
  return (text === 'CONTRIBUTOR' ? 'VIEWER' : text) as StoredSeat;
}

/** Downgrade targets: VIEWER only before the sunset (docs/service.md#seat-types), CONTRIBUTOR always. */
function downgradeTargets(pastViewerSunset: boolean): readonly string[] {
  return pastViewerSunset ? ['CONTRIBUTOR', 'GUEST'] : ['VIEWER', 'GUEST', 'CONTRIBUTOR'];
}

const DOWNGRADABLE: readonly StoredSeat[] = ['MEMBER', 'PROVISIONAL_MEMBER', 'GUEST'];

/**
 * Downgrade (docs/service.md#downgrade-and-upgrade): to CONTRIBUTOR (VIEWER before the sunset) or GUEST, GUEST for
 * external users only (isInternal: false); the user must be Active and hold MEMBER, PROVISIONAL_MEMBER or GUEST; an
 * admin only with removeAdminStatus=true, which also clears admin. The current seat answers 200 without a change.
 * Refusals are 403 with the server's own code (docs/service.md#refusal-codes).
 */
export function checkDowngrade(
  user: UserRecord,
  seat: PlanSeat,
  seatType: unknown,
  removeAdminStatus: boolean,
  pastViewerSunset = false,
): SeatChange {
  const target = parseTarget(seatType, downgradeTargets(pastViewerSunset));
  if (seat.seatType === target) return { target, changed: false, clearAdmin: false };
  if (target === 'GUEST' && seat.isInternal) {
    throw ApiError.refused(CODES.guestOnlyForExternal, `User ${user.id} is an internal user; GUEST seats are for external users only.`);
  }
  if (user.status !== 'ACTIVE') {
    throw ApiError.refused(CODES.seatChangeNotAllowed, `User ${user.id} is ${user.status}; only Active users can be downgraded.`);
  }
  if (!DOWNGRADABLE.includes(seat.seatType)) {
    throw ApiError.refused(
      CODES.seatChangeNotAllowed,
      `User ${user.id} holds a ${seat.seatType} seat; only Member, Provisional Member or Guest seats can be downgraded.`,
    );
  }
  if (user.admin && !removeAdminStatus) {
    throw ApiError.refused(
      CODES.seatChangeNotAllowed,
      `User ${user.id} is an admin; set removeAdminStatus=true to downgrade and remove admin status.`,
    );
  }
  return { target, changed: true, clearAdmin: user.admin && removeAdminStatus };
}

/** Moves that count as upgrades (developer guide: provisional→member, viewer→member|guest, guest→member). */
const UPGRADES: Record<StoredSeat, readonly StoredSeat[]> = {
  PROVISIONAL_MEMBER: ['MEMBER'],
  VIEWER: ['MEMBER', 'GUEST'],
  GUEST: ['MEMBER'],
  MEMBER: [],
};

/**
 * Upgrade (docs/service.md#downgrade-and-upgrade): to MEMBER or GUEST, MEMBER when none given; the current seat
 * answers 200. GUEST is a target for external users only (isInternal: false).
 */
export function checkUpgrade(user: UserRecord, seat: PlanSeat, seatType: unknown): SeatChange {
  const target = parseTarget(seatType, ['MEMBER', 'GUEST'], 'MEMBER');
  if (seat.seatType === target) return { target, changed: false, clearAdmin: false };
  if (target === 'GUEST' && seat.isInternal) {
    throw ApiError.refused(CODES.guestOnlyForExternal, `User ${user.id} is an internal user; GUEST seats are for external users only.`);
  }
  if (!UPGRADES[seat.seatType].includes(target)) {
    throw ApiError.refused(CODES.seatChangeNotAllowed, `User ${user.id} cannot be upgraded from ${seat.seatType} to ${target}.`);
  }
  return { target, changed: true, clearAdmin: false };
}
