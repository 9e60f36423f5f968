import type { Queue } from 'bullmq';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { BatchStore } from '../queue/batch-store.js';
import type { RowJobData } from '../queue/row-job.js';
import type { StepIndex } from './step-index.js';
import type { StepJobData } from './step-job.js';
import type { WorkflowStore } from './workflow-store.js';

/** What every part of the offboarding workflow works with: its store, the batch machinery, the two queues, the step index, a clock. */
export interface WorkflowContext {
  store: WorkflowStore;
  batches: BatchStore;
  /** The rows queue of the target: steps queue their rows here, for the existing row processor and job types. */
  rowsQueue: Queue<RowJobData>;
  stepQueue: Queue<StepJobData>;
  /** The steps not yet ended, by due time: queued with their jobs, dropped when they end. */
  steps: StepIndex;
  /** Due times and the hold are read on this clock (tests move it with the reference server's). */
  clock: Clock;
  sim: boolean;
  logger: Logger;
  /** config offboarding.stepPollMs. */
  pollMs: number;
}
