/**
 * Seats that can own sheets: MEMBER (the paid seat) and PROVISIONAL_MEMBER (full access during its review period; paid
 * at the true-up unless downgraded, or dropped to a free seat at the end of the review). Guests, Viewers and
 * Contributors are free and cannot own sheets. Source: the help centre's "Seat types in the User Subscription Model"
 * and "Overview of the user model" (docs/offboarding.md, "The removal pre-flight"). A seat type seatflow does not know
 * counts as one that cannot.
 */
export const SHEET_OWNER_SEAT_TYPES: ReadonlySet<string> = new Set(['MEMBER', 'PROVISIONAL_MEMBER']);

/** Whether a user can own sheets, judged by the seat the service reports; by `licensedSheetCreator` on a plan without seat types. */
export function ownsSheetsBySeat(user: { seatType?: string | null | undefined; licensedSheetCreator?: boolean | null | undefined }): { can: boolean | undefined; seat?: string } {
  if (typeof user.seatType === 'string') return { can: SHEET_OWNER_SEAT_TYPES.has(user.seatType), seat: user.seatType };
  return { can: user.licensedSheetCreator ?? undefined };
}
