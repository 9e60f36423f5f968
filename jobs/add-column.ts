import { z } from 'zod';
import type { Column } from '../src/contract/index.js';
import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { invert, numberOf, type ReversibleJobType } from './inverse-support.js';
import { columnFields } from './writable-fields.js';
import { listColumns } from './resolve-target.js';

type AddColumnAction = ActionOf<'add-column'>;

function sheetIdOf(context: { target: { sheetId?: number }; action: AddColumnAction }): number {
  return context.target.sheetId ?? context.action.sheetId;
}

/** The sheet's columns before the add, as readBefore keeps them (or a migration's plan, from its listing). */
const addColumnBeforeSchema = z.object({ columnIds: z.array(z.number()) });

/** The state before an add: the ids of the sheet's columns then. */
export function addColumnStateBefore(columns: readonly Pick<Column, 'id'>[]): z.infer<typeof addColumnBeforeSchema> {
  return { columnIds: columns.map((column) => column.id) };
}

/**
 * add-column: add one column to a sheet. Confirm: list the sheet's columns; a column with exactly that title exists →
 * done (titles are unique within a sheet, so a retry can never add a second one; the pre-flight refuses rows whose
 * title already existed before the batch). The found column's id goes to the log: confirm's answer has no detail.
 * No column of that title, but one the sheet did not have before the row's first attempt (readBefore keeps their ids)
 * → changed-since: it may be this row's, renamed since by another change (soak seed 6643: a later migration renamed
 * the column whose add had lost its answer, and the add, sent again, made a second one). Never sent again then.
 */
export const addColumnJob: ReversibleJobType<AddColumnAction> = {
  action: 'add-column',
  // Confirms wait out a request that got no answer: else a second create is refused (it exists) although the first landed.
  creates: true,

  async run(context) {
    const { action } = context;
    const sheetId = sheetIdOf(context);
    const [column] = await context.api.columns.add(
      sheetId,
      [
        { ...columnFields(action), title: action.title, type: action.type, index: action.index },
      ],
      callOptions(context),
    );
    return succeeded({ sheetId, ...(column === undefined ? {} : { columnId: column.id }) });
  },

  async confirm(context, before) {
    const sheetId = sheetIdOf(context);
    const columns = await listColumns(context.api, sheetId, context);
    const column = columns.find((c) => c.title === context.action.title);
    if (column === undefined) {
      const found = addColumnBeforeSchema.safeParse(before);
      const newSince = found.success ? columns.find((each) => !found.data.columnIds.includes(each.id)) : undefined;
      if (newSince === undefined) return 'not-done';
      context.logger.info({ sheetId, columnId: newSince.id, title: newSince.title }, 'no column has the title, but one is new since the first attempt: it may be this row\'s, renamed');
      return 'changed-since';
    }
    context.logger.info({ sheetId, columnId: column.id, title: column.title }, 'column already on the sheet');
    return 'done';
  },

  async readBefore(context) {
    return addColumnStateBefore(await listColumns(context.api, sheetIdOf(context), context));
  },

  // The column did not exist before (the pre-flight refuses a title already taken): the inverse deletes it, by the id
  // the add answered when known.
  inverse(facts) {
    const sheetId = facts.target.sheetId ?? facts.action.sheetId;
    const columnId = numberOf(facts.detail?.columnId);
    const named = columnId === undefined ? { columnTitle: facts.action.title } : { columnId };
    return invert([{ action: 'delete-column', sheetId, ...named }], ['the added column is deleted with every value entered in it since']);
  },
};
