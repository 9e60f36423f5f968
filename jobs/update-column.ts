import type { Column, ColumnUpdate } from '../src/contract/index.js';
import type { ActionOf } from '../src/manifest/action.js';
import type { JobType } from '../src/queue/job-type.js';
import { callOptions, succeeded } from './job-support.js';
import { columnFields } from './writable-fields.js';
import { resolveColumnId } from './resolve-target.js';

type UpdateColumnAction = ActionOf<'update-column'>;

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
 * update-column: rename, move, retype or reconfigure one column. Confirm: get the column (at level 2, so MULTI_*
 * types read as themselves) and compare every requested field → all equal → done.
 * Limit: `index` is compared as it is now; if another change moved the column since, confirm says not-done and the
 * update is repeated (an update to values already there changes nothing the user sees).
 */
export const updateColumnJob: JobType<UpdateColumnAction> = {
  action: 'update-column',

  async run(context) {
    const sheetId = context.target.sheetId ?? context.action.sheetId;
    const columnId = await resolveColumnId(context, context.action.title);
    await context.api.columns.update(sheetId, columnId, columnFields(context.action), callOptions(context));
    return succeeded({ sheetId, columnId });
  },

  async confirm(context) {
    const sheetId = context.target.sheetId ?? context.action.sheetId;
    const columnId = await resolveColumnId(context, context.action.title);
    const column = await context.api.columns.get(sheetId, columnId, { ...callOptions(context), level: 2 });
    return columnHas(column, columnFields(context.action)) ? 'done' : 'not-done';
  },
};
