import type { Column, ColumnUpdate } from '../src/contract/index.js';
import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { columnFields } from './writable-fields.js';
import { resolveColumnId } from './resolve-target.js';
import { cannotInvert, invert, NOTHING_RECORDED, stateBefore, type ReversibleJobType } from './inverse-support.js';
import { z } from 'zod';

type UpdateColumnAction = ActionOf<'update-column'>;

/** The column's fields before the update, as readBefore kept them. */
const columnBeforeSchema = z
  .object({
    columnId: z.number(),
    type: z.string(),
    title: z.string().optional(),
    index: z.number().optional(),
    options: z.array(z.string()).optional(),
    symbol: z.string().optional(),
    systemColumnType: z.string().optional(),
    width: z.number().optional(),
    hidden: z.boolean().optional(),
    locked: z.boolean().optional(),
    validation: z.boolean().optional(),
    description: z.string().optional(),
    formula: z.string().optional(),
  })
  .strip();

/** Flags the service leaves out when false. */
const FALSE_WHEN_ABSENT = new Set<keyof ColumnUpdate>(['hidden', 'locked', 'validation']);

/** Whether the column already has every requested value (options compared in order, as the service keeps them). */
export function columnHas(column: Column, changes: ColumnUpdate): boolean {
  return (Object.keys(changes) as (keyof ColumnUpdate)[]).every((field) => {
    const wanted = changes[field];
    const actual = FALSE_WHEN_ABSENT.has(field) ? (column[field as keyof Column] ?? false) : column[field as keyof Column];
    if (Array.isArray(wanted)) {
      return Array.isArray(actual) && actual.length === wanted.length && wanted.every((item, i) => actual[i] === item);
    }
    return actual === wanted;
  });
}

/**
 * Whether a field the row sets holds a value now that is neither the requested one nor the one the row found: someone
 * else set it. `index` is left out (any other column's move shifts it).
 */
function changedSince(column: Column, wanted: ColumnUpdate, before: z.infer<typeof columnBeforeSchema>): boolean {
  const found = before as Record<string, unknown>;
  return (Object.keys(wanted) as (keyof ColumnUpdate)[]).some((field) => {
    if (field === 'index' || !(field in found)) return false;
    const single = { [field]: wanted[field] } as ColumnUpdate;
    const asFound = { [field]: found[field] } as ColumnUpdate;
    return !columnHas(column, single) && !columnHas(column, asFound);
  });
}

/**
 * The row's state before, from the column as read at level 2 (MULTI_* types as themselves): its id and type, and every
 * field the row sets. readBefore builds it from its own read, a migration's plan from its listing (target.readAtPlan).
 */
export function columnStateBefore(column: Column, action: UpdateColumnAction): Record<string, unknown> {
  const before: Record<string, unknown> = { columnId: column.id, type: column.type };
  for (const field of Object.keys(columnFields(action)) as (keyof ColumnUpdate)[]) {
    const value = FALSE_WHEN_ABSENT.has(field) ? (column[field as keyof Column] ?? false) : column[field as keyof Column];
    if (value !== undefined) before[field] = value;
  }
  return before;
}

/**
 * update-column: rename, move, retype or reconfigure one column. Confirm: get the column (at level 2, so MULTI_*
 * types read as themselves) and compare every requested field → all equal → done; else, when the row kept the column
 * as it found it, a field that is neither its value then nor the requested one → changed-since (another batch or a
 * person changed the column meanwhile: sending the row again would undo their change; soak seed 6424).
 * Limit: `index` is compared as it is now; if another change moved the column since, confirm says not-done and the
 * update is repeated (an update to values already there changes nothing the user sees).
 */
export const updateColumnJob: ReversibleJobType<UpdateColumnAction> = {
  action: 'update-column',
  repeatShows: true,

  async run(context) {
    const sheetId = context.target.sheetId ?? context.action.sheetId;
    const columnId = await resolveColumnId(context, context.action.title);
    await context.api.columns.update(sheetId, columnId, columnFields(context.action), callOptions(context));
    return succeeded({ sheetId, columnId });
  },

  async confirm(context, before) {
    const sheetId = context.target.sheetId ?? context.action.sheetId;
    const columnId = await resolveColumnId(context, context.action.title);
    const column = await context.api.columns.get(sheetId, columnId, { ...callOptions(context), level: 2 });
    const wanted = columnFields(context.action);
    if (columnHas(column, wanted)) return 'done';
    const found = columnBeforeSchema.safeParse(before);
    return found.success && changedSince(column, wanted, found.data) ? 'changed-since' : 'not-done';
  },

  /** The column as it was, at level 2 (MULTI_* types as themselves): every field the row sets, and its type. */
  async readBefore(context) {
    const sheetId = context.target.sheetId ?? context.action.sheetId;
    const columnId = await resolveColumnId(context);
    const column = await context.api.columns.get(sheetId, columnId, { ...callOptions(context), level: 2 });
    return columnStateBefore({ ...column, id: columnId }, context.action);
  },

  // "A column restored": the fields the row changed, back to what they were (the type too, since a row that changes
  // options or the type must name it). Values a type change converted are not converted back exactly.
  inverse(facts) {
    const before = stateBefore(facts, columnBeforeSchema);
    if (before === undefined) return cannotInvert(`the column before the update is not known: ${NOTHING_RECORDED}`);
    const { columnId, ...fields } = before;
    const changed = Object.keys(columnFields(facts.action)).filter((field) => field !== 'type');
    const restored = Object.fromEntries(Object.entries(fields).filter(([field]) => field === 'type' || changed.includes(field)));
    const missing = changed.filter((field) => !(field in fields));
    const notes = [
      ...(facts.action.type !== undefined && facts.action.type !== before.type ? [`the type goes back to ${before.type}; values the change converted are not converted back exactly`] : []),
      ...missing.map((field) => `${field} had no value before; it keeps the one the batch set`),
    ];
    return invert([{ action: 'update-column', sheetId: facts.target.sheetId ?? facts.action.sheetId, columnId, ...restored } as UpdateColumnAction], notes);
  },
};
