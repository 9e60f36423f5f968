import { createHash } from 'node:crypto';
import { Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { GovernanceConfig } from '../../core/governance-config.js';
import type { Logger } from '../../core/logger.js';
import { NOTIFICATIONS_QUEUE } from '../../queue/queue-keys.js';
import { stepQueueNameOf, type StepJobData } from '../../workflow/step-job.js';
import { closeTransports, deliver } from './deliver.js';
import type { DeliveryLog } from './delivery-log.js';
import type { Notifier } from './notification-event.js';
import type { DeliveryJobData, NotificationJobData, QueueNotifier, SweepJobData } from './notifier.js';
import { notifyOverdueSteps } from './overdue-steps.js';
import { logBullmqError } from '../../queue/redis/connection-lost.js';
import { closeBullmq } from '../../queue/redis/close-bullmq.js';

export interface NotificationWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  settings: GovernanceConfig['notifications'];
  deliveries: DeliveryLog;
  /** Where the overdue-step look hands its events (the same queue). */
  notifier: Notifier;
  logger: Logger;
  /** How often the target's step queue is looked at for overdue steps. Default 5 minutes. */
  sweepEveryMs?: number;
}

export interface NotificationWorker {
  worker: Worker<NotificationJobData>;
  /** Looks for overdue steps of this target periodically (a BullMQ Job Scheduler: one look per period fleet-wide). */
  watchSteps(notifier: QueueNotifier, target: { id: string; sim: boolean }): Promise<void>;
  close(graceMs: number): Promise<void>;
}

function isSweep(data: NotificationJobData): data is SweepJobData {
  return 'sweep' in data;
}

/**
 * Sends queued notifications: each try is recorded (delivered, failed and retried with backoff, given up); a refusal
 * that retrying cannot change (HTTP 4xx, SMTP 5xx) ends the delivery at once. Started beside the row workers by
 * `seatflow worker`, and always by `seatflow serve` (so an overdue step is noticed even when no worker runs).
 */
export function startNotificationWorker(options: NotificationWorkerOptions): NotificationWorker {
  const { settings, logger } = options;
  const stepQueues = new Map<string, Queue<StepJobData>>();
  const stepQueue = (name: string): Queue<StepJobData> => {
    let queue = stepQueues.get(name);
    if (queue === undefined) {
      queue = new Queue<StepJobData>(name, { connection: options.connection, prefix: options.prefix });
      queue.on('error', (error) => logger.debug({ err: error }, 'step queue connection error'));
      stepQueues.set(name, queue);
    }
    return queue;
  };

  async function deliverOne(job: Job<NotificationJobData>, data: DeliveryJobData): Promise<void> {
    const attempt = job.attemptsMade + 1;
    const destination = settings.destinations.find((candidate) => candidate.name === data.destination);
    if (destination === undefined) throw new UnrecoverableError(`destination ${data.destination} is no longer configured`);
    const started = Date.now();
    const answer = await deliver(destination, data.event, { settings, deliveryId: job.id ?? '', attempt });
    const willRetry = !answer.ok && !answer.permanent && attempt < (job.opts.attempts ?? 1);
    await options.deliveries
      .record({
        at: new Date().toISOString(),
        eventId: data.event.id,
        eventType: data.event.type,
        destination: destination.name,
        destinationType: destination.type,
        attempt,
        ok: answer.ok,
        ...(answer.status === undefined ? {} : { status: answer.status }),
        ...(answer.ok ? {} : { error: answer.error }),
        willRetry,
        ms: Date.now() - started,
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not record a notification delivery'));
    if (answer.ok) return;
    const log = { destination: destination.name, event: data.event.id, attempt, status: answer.status, error: answer.error };
    if (answer.permanent) {
      logger.error(log, 'notification refused by its receiver: not retried');
      throw new UnrecoverableError(answer.error);
    }
    logger[willRetry ? 'warn' : 'error'](log, willRetry ? 'notification not delivered; retried with backoff' : 'notification not delivered; gave up');
    throw new Error(answer.error);
  }

  const worker = new Worker<NotificationJobData>(
    NOTIFICATIONS_QUEUE,
    async (job) => {
      const data = job.data;
      if (isSweep(data)) {
        const found = await notifyOverdueSteps(stepQueue(data.stepQueue), options.notifier, {
          nowMs: Date.now(),
          graceMs: settings.stepOverdueMinutes * 60_000,
          target: data.target,
          sim: data.sim,
        });
        if (found > 0) logger.warn({ target: data.target, overdue: found }, 'offboarding steps are due and not taken');
        return;
      }
      await deliverOne(job, data);
    },
    { connection: options.connection, prefix: options.prefix, concurrency: 4, autorun: true },
  );
  worker.on('error', logBullmqError(logger, 'notification worker'));

  return {
    worker,
    async watchSteps(notifier, target) {
      const name = stepQueueNameOf(target.id);
      const data: SweepJobData = { sweep: 'overdue-steps', stepQueue: name, target: target.id, sim: target.sim };
      const id = `overdue-steps-${createHash('sha256').update(target.id).digest('hex').slice(0, 12)}`;
      await notifier.queue().upsertJobScheduler(id, { every: options.sweepEveryMs ?? 5 * 60_000 }, { name: 'sweep', data, opts: { removeOnComplete: true, removeOnFail: { age: 24 * 3600 } } });
    },
    async close(graceMs) {
      // A serve whose port is taken closes this worker as it starts: closeBullmq says why that needs care.
      await closeBullmq(worker, { graceMs });
      await Promise.all([...stepQueues.values()].map((queue) => closeBullmq(queue)));
      closeTransports();
    },
  };
}
