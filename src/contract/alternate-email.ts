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
