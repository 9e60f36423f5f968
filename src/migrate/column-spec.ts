import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { COLUMN_TYPES } from '../contract/index.js';
import { fileRefusal } from '../core/file-refusal.js';
import { UsageError } from '../core/seatflow-error.js';

const title = z.string().trim().min(1, { message: 'a column needs a title' });
const DROPDOWNS = new Set(['PICKLIST', 'MULTI_PICKLIST']);

/** One column of the standard: what it is called, its type and options, and where a missing one is added. */
export const specColumnSchema = z
  .strictObject({
    title,
    type: z.string().trim().toUpperCase().pipe(z.enum(COLUMN_TYPES)),
    /** Where the column is added when a sheet lacks it (0 = first); at the end when absent. Existing columns stay where they are. */
    index: z.number().int().min(0).optional(),
    options: z.array(z.string().trim().min(1)).min(1).optional(),
    symbol: z.string().trim().toUpperCase().optional(),
    width: z.number().int().positive().optional(),
    hidden: z.boolean().optional(),
    locked: z.boolean().optional(),
    description: z.string().optional(),
    /** Titles the column has on some sheets today: such a column is renamed to `title`. */
    formerTitles: z.array(title).default([]),
  })
  .refine((column) => column.options === undefined || DROPDOWNS.has(column.type), { message: 'options are for PICKLIST and MULTI_PICKLIST columns only', path: ['options'] });
export type SpecColumn = z.output<typeof specColumnSchema>;

/** The standard sheets' columns are brought to (`seatflow migrate columns --spec FILE`). */
export const columnSpecSchema = z
  .strictObject({
    version: z.literal(1).default(1),
    columns: z.array(specColumnSchema).min(1, { message: 'the standard lists no column' }),
    /** Delete the columns the standard does not name (never the primary column, nor those in `keep`). Default false. */
    deleteOthers: z.boolean().default(false),
    /** Titles never deleted with deleteOthers. */
    keep: z.array(title).default([]),
  })
  .superRefine((spec, ctx) => {
    const seen = new Map<string, string>();
    spec.columns.forEach((column, i) => {
      for (const name of [column.title, ...column.formerTitles]) {
        const key = name.toLowerCase();
        const other = seen.get(key);
        if (other !== undefined) ctx.addIssue({ code: 'custom', message: `"${name}" names two columns of the standard ("${other}" and "${column.title}")`, path: ['columns', i, 'title'] });
        seen.set(key, column.title);
      }
    });
  });
export type ColumnSpec = z.output<typeof columnSpecSchema>;

/** The standard, read and checked: every problem listed with where it is, so the file is fixed in one go. */
export async function readColumnSpec(file: string, content?: Buffer): Promise<{ spec: ColumnSpec; text: string }> {
  let text: string;
  try {
    text = (content ?? (await readFile(file))).toString('utf8');
  } catch (error) {
    throw fileRefusal('column standard', file, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`, 'See jobs/examples/column-standard.json.');
  }
  const parsed = columnSpecSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`);
    throw new UsageError(`${file} is not a column standard:\n${problems.join('\n')}`, 'See jobs/examples/column-standard.json and docs/migrations.md#columns.');
  }
  return { spec: parsed.data, text };
}
