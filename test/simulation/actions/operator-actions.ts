import { cancelBatch, retryBatch } from './batch-control.js';
import { hrSync } from './hr-sync.js';
import { manifestBatch } from './manifest-batch.js';
import { migrateColumns } from './migrate-columns.js';
import { offboard } from './offboard.js';
import { outsideChange } from './outside-change.js';
import type { OperatorAction } from './operator-action.js';
import { reviewChange } from './review-change.js';
import { revertBatch } from './revert-batch.js';
import { runStepNow } from './run-step-now.js';
import { scheduledReconciliation } from './scheduled-reconciliation.js';
import { undoOffboarding } from './undo-offboarding.js';

/**
 * Every operator action the generator draws from, in a fixed order (the order is part of what a seed means: a new
 * action goes at the end, so that the seeds run before keep their earlier draws). docs/architecture.md says how to
 * add one.
 */
export const OPERATOR_ACTIONS: readonly OperatorAction[] = [
  manifestBatch,
  offboard,
  hrSync,
  scheduledReconciliation,
  reviewChange,
  undoOffboarding,
  cancelBatch,
  retryBatch,
  revertBatch,
  runStepNow,
  outsideChange,
  migrateColumns,
];
