import { z } from 'zod';
import { idSchema, timestampSchema } from './ids.js';
import { SEAT_TYPES, type SeatType } from './enums.js';
import { recognize, type UnrecognizedValue } from './unrecognized-value.js';

const rawUserPlanSchema = z.object({
  planId: idSchema,
  // Read leniently (docs/service.md#reading-leniently): null where a value is expected, seat types added later.
  planName: z.string().nullish(),
  seatType: z.string().nullish(),
  seatTypeLastChangedAt: timestampSchema.optional(),
  provisionalExpirationDate: timestampSchema.nullable().optional(),
  isInternal: z.boolean().nullish(),
});

/** One plan a user belongs to (docs/service.md#user-objects). planName only when requested with include. */
export interface UserPlan extends Omit<z.output<typeof rawUserPlanSchema>, 'planName' | 'seatType' | 'isInternal'> {
  planName?: string;
  seatType?: SeatType;
  isInternal?: boolean;
  /** Values of this plan entry that seatflow does not know, kept instead of failing the page. */
  unrecognized?: UnrecognizedValue[];
}

export const userPlanSchema = rawUserPlanSchema.transform((raw): UserPlan => {
  const unrecognized: UnrecognizedValue[] = [];
  const { planName, seatType, isInternal, ...rest } = raw;
  const plan: UserPlan = { ...rest };
  if (planName !== undefined && planName !== null) plan.planName = planName;
  const seat = recognize(SEAT_TYPES, 'seatType', seatType, unrecognized);
  if (seat !== undefined) plan.seatType = seat;
  if (isInternal !== undefined && isInternal !== null) plan.isInternal = isInternal;
  if (unrecognized.length > 0) plan.unrecognized = unrecognized;
  return plan;
});
