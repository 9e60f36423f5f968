/**
 * Seats that are paid for and can own sheets: Members, and Provisional Members (full access during their review
 * period). Guests, Viewers and Contributors are free and cannot own sheets. Source: the help centre's "Seat types in
 * the User Subscription Model" (docs/offboarding.md, "The removal pre-flight"). A seat type seatflow does not know counts as not paid.
 */
export const PAID_SEAT_TYPES: ReadonlySet<string> = new Set(['MEMBER', 'PROVISIONAL_MEMBER']);

/** Whether a user can own sheets, judged by the seat the service reports; by `licensedSheetCreator` on a plan without seat types. */
export function ownsSheetsBySeat(user: { seatType?: string | null | undefined; licensedSheetCreator?: boolean | null | undefined }): { can: boolean | undefined; seat?: string } {
  if (typeof user.seatType === 'string') return { can: PAID_SEAT_TYPES.has(user.seatType), seat: user.seatType };
  return { can: user.licensedSheetCreator ?? undefined };
}
