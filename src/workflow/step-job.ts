import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import { hashTag } from '../queue/queue-keys.js';

/**
 * The steps of a leaver: cut access on the leave date, remove after the hold, and (after an undo) reactivate and
 * restore the seat held before. Other lifecycles name their own steps (lifecycle.ts); every step of every lifecycle
 * is a job of the one step queue of its target.
 */
export const STEP_NAMES = ['deactivate', 'remove', 'reactivate'] as const;
export type StepName = (typeof STEP_NAMES)[number];

export interface StepJobData {
  workflowId: string;
  row: number;
  /** A step of the workflow's lifecycle (offboarding: one of STEP_NAMES). */
  step: string;
  /** When the step is due (epoch ms, by the workflow's clock): status shows it and tests promote by it. */
  dueAt: number;
  /** How often this step has looked for its row's outcome: the wait between looks grows with it. */
  polls?: number;
}

/**
 * The BullMQ queue of a target's steps, of every lifecycle (as rows-<hash> is its rows'). Named `offboard-` since
 * offboarding was its first lifecycle; the name stays, so steps queued before go on running.
 */
export function stepQueueNameOf(target: string): string {
  return hashTag(`offboard-${createHash('sha256').update(target).digest('hex').slice(0, 8)}`);
}

/** `<workflow>-<row>-<step>`: a step is queued once, whoever (submission, a repeated step, a restart) adds it again. */
export function stepJobId(workflowId: string, row: number, step: string): string {
  return `${workflowId}-${row}-${step}`;
}

/**
 * A step waits in Redis as a delayed job until it is due, so it survives worker and Redis restarts (AOF) and needs no
 * process to keep time. BullMQ's attempts cover reads that met a passing outage (the step is idempotent by phase).
 */
export function stepJobOptions(data: StepJobData, nowMs: number): JobsOptions {
  return {
    jobId: stepJobId(data.workflowId, data.row, data.step),
    delay: Math.max(0, data.dueAt - nowMs),
    attempts: 25,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}
