import type { QueueKeys } from '../queue/queue-keys.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import { writeTogether } from '../queue/redis/write-together.js';
/** A step of one person that has not ended: when it is due, on the service clock. */
export interface PendingStep {
  row: number;
  /** A step of the workflow's lifecycle. */
  step: string;
  dueAt: number;
}

/**
 * Every step of a workflow that has not ended, by due time: one sorted set per workflow. A step enters it when it is
 * queued (submission, the hold's start, undo, retry, `seatflow steps run`) and leaves it when its job returns, so
 * "is anything of this workflow due by now" is one count, whatever the number of leavers, and `seatflow steps` lists
 * them in order without reading every leaver. A second set holds the same steps, each at the time the service-clock
 * sweep should look at its job: its due instant until a worker starts it; once started, a look-at time a while on (a
 * worker that dies leaves its job to BullMQ, which may fail it without telling anyone); while it waits again, that
 * time (its due instant, its retry, its next look at its row). A step leaves it when it ends (its run, an undo). The
 * sweep reads it and acts on the jobs, never writes it, since what it read of a job may
 * have changed by then (a worker whose clock is behind sending the step back to wait). The step jobs themselves stay
 * the truth of what runs: this is their index.
 */
export interface StepIndex {
  add(workflowId: string, steps: readonly PendingStep[]): Promise<void>;
  /**
   * A worker started the step: it stays on the sweep's list at `lookAt`, when the sweep looks at its job in case the
   * worker dropped it (it died, and BullMQ failed the job once it had stalled too often, telling no worker); a job still
   * held by a worker is left alone. Only the worker that holds the step says so.
   */
  started(workflowId: string, row: number, step: string, lookAt: number): Promise<void>;
  /** The step waits again until `dueAt` (handed out before it was due on the service clock, a retry, a look at its row). */
  waiting(workflowId: string, step: PendingStep): Promise<void>;
  /** The step ended (ran to its end, or was cancelled by undo): it is no longer pending. */
  done(workflowId: string, row: number, step: string): Promise<void>;
  /** Pending steps due by `atMs`. */
  dueCount(workflowId: string, atMs: number): Promise<number>;
  /** Pending steps in due order (at most `limit`, default all), optionally only those due by `dueBy`. */
  list(workflowId: string, options?: { dueBy?: number; limit?: number }): Promise<PendingStep[]>;
  /** Steps not yet started that are due by `atMs` (at most `limit`), oldest first. */
  dueWaiting(workflowId: string, atMs: number, limit: number): Promise<PendingStep[]>;
}

const SEPARATOR = ':';
const memberOf = (row: number, step: string): string => `${row}${SEPARATOR}${step}`;

export function createStepIndex(redis: RedisClient, keys: QueueKeys): StepIndex {
  const range = async (key: string, dueBy: number | '+inf', limit?: number): Promise<PendingStep[]> => {
    const flat = limit === undefined ? await redis.zrangebyscore(key, '-inf', dueBy, 'WITHSCORES') : await redis.zrangebyscore(key, '-inf', dueBy, 'WITHSCORES', 'LIMIT', 0, limit);
    const steps: PendingStep[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const [row, step] = (flat[i] ?? '').split(SEPARATOR);
      if (step === undefined || step === '' || !/^\d+$/.test(row ?? '')) continue;
      steps.push({ row: Number(row), step, dueAt: Number(flat[i + 1]) });
    }
    return steps;
  };
  return {
    async add(workflowId, steps) {
      for (let i = 0; i < steps.length; i += 1000) {
        const args = steps.slice(i, i + 1000).flatMap((step) => [step.dueAt, memberOf(step.row, step.step)]);
        const [all, waiting] = [keys.workflowSteps(workflowId), keys.workflowStepsWaiting(workflowId)];
        if (args.length > 0) await writeTogether(redis, [all, waiting], [['ZADD', all, ...args], ['ZADD', waiting, ...args]]);
      }
    },
    async started(workflowId, row, step, lookAt) {
      await redis.zadd(keys.workflowStepsWaiting(workflowId), lookAt, memberOf(row, step));
    },
    async waiting(workflowId, step) {
      await redis.zadd(keys.workflowStepsWaiting(workflowId), step.dueAt, memberOf(step.row, step.step));
    },
    async done(workflowId, row, step) {
      const [all, waiting] = [keys.workflowSteps(workflowId), keys.workflowStepsWaiting(workflowId)];
      await writeTogether(redis, [all, waiting], [['ZREM', all, memberOf(row, step)], ['ZREM', waiting, memberOf(row, step)]]);
    },
    async dueCount(workflowId, atMs) {
      return redis.zcount(keys.workflowSteps(workflowId), '-inf', atMs);
    },
    list: (workflowId, options = {}) => range(keys.workflowSteps(workflowId), options.dueBy ?? '+inf', options.limit),
    dueWaiting: (workflowId, atMs, limit) => range(keys.workflowStepsWaiting(workflowId), atMs, limit),
  };
}
