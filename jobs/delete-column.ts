import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, deleteOrConfirmGone } from './job-support.js';
import { cannotInvert, type ReversibleJobType } from './inverse-support.js';
import { listColumns, resolveColumnId } from './resolve-target.js';

type DeleteColumnAction = ActionOf<'delete-column'>;

/**
 * delete-column: delete one column. Confirm: list the sheet's columns (not get-column: a 404 there could be the
 * sheet as well as the column); the column (by id, or by title when no id is known) is not among them → done; the
 * sheet itself missing → its 404 propagates and the row fails. A 404 on the delete → the same check decides.
 */
export const deleteColumnJob: ReversibleJobType<DeleteColumnAction> = {
  action: 'delete-column',

  async run(context) {
    const sheetId = context.target.sheetId ?? context.action.sheetId;
    const columnId = await resolveColumnId(context);
    return deleteOrConfirmGone(
      deleteColumnJob,
      context,
      () => context.api.columns.delete(sheetId, columnId, callOptions(context)),
      { sheetId, columnId },
    );
  },

  async confirm(context) {
    const sheetId = context.target.sheetId ?? context.action.sheetId;
    const columns = await listColumns(context.api, sheetId, context);
    const columnId = context.target.columnId ?? context.action.columnId;
    const present =
      columnId !== undefined ? columns.some((c) => c.id === columnId) : columns.some((c) => c.title === context.action.columnTitle);
    return present ? 'not-done' : 'done';
  },

  inverse: () => cannotInvert('a deleted column cannot be restored: its values went with it'),
};
