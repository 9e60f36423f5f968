import type { PlannedRow } from '../plan/planned-row.js';
import type { LeaverState } from './leaver-state.js';
import type { WorkflowRecord } from './workflow-store.js';

/**
 * The rows an offboarding's later steps run for a leaver, made from the leaver's recorded state alone, so that a step
 * can save its row again when a Redis failover kept the leaver's phase but dropped the row written beside it.
 */

/** The remove row of a leaver, as the existing remove job type takes it: with the transfer target the re-check chose. */
export function removeRow(workflow: WorkflowRecord, leaver: LeaverState, transferTo: { email: string; userId?: number | undefined } | undefined): PlannedRow {
  return {
    row: leaver.row,
    line: leaver.line,
    action: {
      action: 'remove',
      user: { email: leaver.email },
      ...(transferTo === undefined ? {} : { transferTo: { email: transferTo.email }, transferSheets: true }),
      ...(workflow.removeFromSharing ? { removeFromSharing: true } : {}),
    },
    actionName: 'remove',
    verdict: 'change',
    target: { ...(leaver.userId === undefined ? {} : { userId: leaver.userId }), email: leaver.email, ...(transferTo?.userId === undefined ? {} : { transferToUserId: transferTo.userId }) },
  };
}

/** The reactivate row of a leaver an undo brought back. */
export function reactivateRow(leaver: LeaverState): PlannedRow {
  return { row: leaver.row, line: leaver.line, action: { action: 'reactivate', user: { email: leaver.email } }, actionName: 'reactivate', verdict: 'change', target: { ...(leaver.userId === undefined ? {} : { userId: leaver.userId }), email: leaver.email } };
}
