import { z } from 'zod';
import { idSchema } from './ids.js';

export const alternateEmailSchema = z.object({
  id: idSchema,
  email: z.string(),
  confirmed: z.boolean().optional(),
});
export type AlternateEmail = z.infer<typeof alternateEmailSchema>;

export const alternateEmailCreateSchema = z.object({ email: z.string().min(1) });
export type AlternateEmailCreate = z.infer<typeof alternateEmailCreateSchema>;

/**
 * How many alternate addresses one user may have: the service refuses one more with 400/1330 and does not document the
 * number. seatflow plans with this one and the reference server enforces it; a lower real limit shows as the 1330 the
 * service answers when the row runs.
 */
export const ALTERNATE_EMAIL_LIMIT = 10;
