import { z } from 'zod';
import { idSchema, timestampSchema } from './ids.js';
import { SEAT_TYPES } from './enums.js';

/** One plan a user belongs to (wire.md §9.3). planName only when requested with include. */
export const userPlanSchema = z.object({
  planId: idSchema,
  planName: z.string().optional(),
  seatType: z.enum(SEAT_TYPES).optional(),
  seatTypeLastChangedAt: timestampSchema.optional(),
  provisionalExpirationDate: timestampSchema.nullable().optional(),
  isInternal: z.boolean().optional(),
});
export type UserPlan = z.infer<typeof userPlanSchema>;
