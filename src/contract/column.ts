import { z } from 'zod';
import { idSchema } from './ids.js';
import { COLUMN_TAGS, COLUMN_TYPES, SYSTEM_COLUMN_TYPES } from './enums.js';

export const autoNumberFormatSchema = z.object({
  prefix: z.string().optional(),
  suffix: z.string().optional(),
  fill: z.string().optional(),
  startingNumber: z.number().optional(),
});

export const contactOptionSchema = z.object({ name: z.string().optional(), email: z.string() });

/** Fields a caller may set on a column (add and update share them; update also takes index to move). */
export const columnWritableFields = {
  title: z.string(),
  type: z.enum(COLUMN_TYPES),
  index: z.number().int().min(0),
  options: z.array(z.string()),
  contactOptions: z.array(contactOptionSchema),
  symbol: z.string(),
  systemColumnType: z.enum(SYSTEM_COLUMN_TYPES),
  autoNumberFormat: autoNumberFormatSchema,
  width: z.number().int().positive(),
  hidden: z.boolean(),
  locked: z.boolean(),
  validation: z.boolean(),
  description: z.string(),
  formula: z.string(),
  format: z.string(),
};

/** A column as the service returns it (docs/service.md#columns). */
export const columnSchema = z.object({
  id: idSchema,
  index: z.number().int(),
  title: z.string(),
  type: z.enum(COLUMN_TYPES),
  primary: z.boolean().optional(),
  options: z.array(z.string()).optional(),
  contactOptions: z.array(contactOptionSchema).optional(),
  symbol: z.string().optional(),
  systemColumnType: z.enum(SYSTEM_COLUMN_TYPES).optional(),
  autoNumberFormat: autoNumberFormatSchema.optional(),
  width: z.number().optional(),
  hidden: z.boolean().optional(),
  locked: z.boolean().optional(),
  lockedForUser: z.boolean().optional(),
  validation: z.boolean().optional(),
  description: z.string().optional(),
  formula: z.string().optional(),
  format: z.string().optional(),
  tags: z.array(z.enum(COLUMN_TAGS)).optional(),
  version: z.number().int().optional(),
});
export type Column = z.infer<typeof columnSchema>;

/** One column of an add-columns call: title, type and index are required by the service. */
export const columnCreateSchema = z
  .object(columnWritableFields)
  .partial()
  .required({ title: true, type: true, index: true });
export type ColumnCreate = z.infer<typeof columnCreateSchema>;

/** An update-column body: every field optional; `type` required when changing type or options (rule 5). */
export const columnUpdateSchema = z.object(columnWritableFields).partial();
export type ColumnUpdate = z.infer<typeof columnUpdateSchema>;
