import { z } from 'zod';

/**
 * A user's seat in one plan as read before a seat row changes it: the seat row's state before, whoever read it (the
 * seat jobs just before their call, the pre-flight, the HR sync's plan). One shape, so a plan's reading stands in for
 * the job's own read (target.readAtPlan), and revert and alreadyDone parse either the same way.
 */
export const seatReadingSchema = z.object({
  planId: z.number(),
  /** Absent: the user was in no such plan, or the service gave no seat type. */
  seatType: z.string().optional(),
  /** The admin flag, read only for a row that may take it away (a downgrade with removeAdminStatus). */
  admin: z.boolean().optional(),
});
export type SeatReading = z.infer<typeof seatReadingSchema>;

/** The reading of a seat: `admin` is kept only when the row clears it (otherwise the row leaves it as it is). */
export function seatReading(planId: number, seatType: string | undefined, admin: { value: boolean | undefined; clearedByRow: boolean }): SeatReading {
  return {
    planId,
    ...(seatType === undefined ? {} : { seatType }),
    ...(admin.clearedByRow && admin.value !== undefined ? { admin: admin.value } : {}),
  };
}
