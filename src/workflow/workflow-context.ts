import type { Queue } from 'bullmq';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { BatchStore } from '../queue/batch-store.js';
import type { QueueKeys } from '../queue/queue-keys.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import type { ReplicatedWrites } from '../queue/redis/replicated-write.js';
import type { RowJobData } from '../queue/row-job.js';
import type { WorkflowBase } from './workflow-shapes.js';
import type { RecordStore } from './record-store.js';
import type { StepIndex } from './step-index.js';
import type { StepJobData } from './step-job.js';
import type { WorkflowStore } from './workflow-store.js';

/** What the engine and every lifecycle work with: Redis, the batch machinery, the two queues, the step index, a clock. */
export interface EngineContext {
  redis: RedisClient;
  keys: QueueKeys;
  /** The API base URL, or `sim:<url>`. */
  target: string;
  /** Every workflow's record, whatever its lifecycle, with the fields they share. */
  records: RecordStore<WorkflowBase>;
  /**
   * Writes seatflow answers for that must survive a failover, on `redis`: a workflow's submission, a person's state
   * (an undo told "undone" must not come back as scheduled).
   */
  replicated: ReplicatedWrites;
  batches: BatchStore;
  /** The rows queue of the target: steps queue their rows here, for the existing row processor and job types. */
  rowsQueue: Queue<RowJobData>;
  stepQueue: Queue<StepJobData>;
  /** The steps not yet ended, by due time: queued with their jobs, dropped when they end. */
  steps: StepIndex;
  /** Due times and holds are read on this clock (tests move it with the reference server's). */
  clock: Clock;
  sim: boolean;
  logger: Logger;
  /** config offboarding.stepPollMs: the first wait before a step looks again for its row's outcome. */
  pollMs: number;
}

/** What every part of the offboarding lifecycle works with: the engine's context and the offboarding store. */
export interface WorkflowContext extends EngineContext {
  store: WorkflowStore;
}
