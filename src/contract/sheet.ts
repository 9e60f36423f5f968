import { z } from 'zod';
import { idSchema, timestampSchema } from './ids.js';

/** An item of GET /sheets: enough to find a sheet's id by name. */
export const sheetSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  accessLevel: z.string().optional(),
  permalink: z.string().optional(),
  owner: z.string().optional(),
  ownerId: idSchema.optional(),
  createdAt: timestampSchema.optional(),
  modifiedAt: timestampSchema.optional(),
});
export type SheetSummary = z.infer<typeof sheetSummarySchema>;
