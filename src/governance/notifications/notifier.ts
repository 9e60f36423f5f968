import { createHash } from 'node:crypto';
import { Queue, type ConnectionOptions } from 'bullmq';
import type { GovernanceConfig } from '../../core/governance-config.js';
import type { Logger } from '../../core/logger.js';
import { NOTIFICATIONS_QUEUE } from '../../queue/queue-keys.js';
import { closeBullmq } from '../../queue/redis/close-bullmq.js';
import { notificationEventSchema, type NotificationEvent, type Notifier } from './notification-event.js';

/** A delivery waiting in the queue: one event for one destination (named: its settings are read when it is sent). */
export interface DeliveryJobData {
  event: NotificationEvent;
  destination: string;
}

/** A periodic look for offboarding steps that are due and were not taken, on one target's step queue. */
export interface SweepJobData {
  sweep: 'overdue-steps';
  stepQueue: string;
  target: string;
  sim: boolean;
}

export type NotificationJobData = DeliveryJobData | SweepJobData;

export interface QueueNotifierOptions {
  connection: ConnectionOptions;
  prefix: string;
  settings: GovernanceConfig['notifications'];
  logger: Logger;
}

export interface QueueNotifier extends Notifier {
  /** The queue, opened on first use (a command that notifies nobody never opens it). */
  queue(): Queue<NotificationJobData>;
  close(): Promise<void>;
}

/** `n` and 24 hex digits of the event id and destination: BullMQ refuses `:` in custom ids, and ours may hold any. */
export function deliveryIdOf(eventId: string, destination: string): string {
  return `n${createHash('sha256').update(`${eventId}\n${destination}`).digest('hex').slice(0, 24)}`;
}

/**
 * Notifications through BullMQ: one job per event and subscribed destination, added here and sent by whichever
 * notification worker takes it (seatflow worker, serve), with retries and backoff, so a receiver that is down for a
 * while still gets the message and the request that caused it never waits on it. The job id is the event's and the
 * destination's, so an event noticed twice is delivered once.
 */
export function createQueueNotifier(options: QueueNotifierOptions): QueueNotifier {
  let opened: Queue<NotificationJobData> | undefined;
  const queue = (): Queue<NotificationJobData> => {
    if (opened === undefined) {
      opened = new Queue<NotificationJobData>(NOTIFICATIONS_QUEUE, { connection: options.connection, prefix: options.prefix });
      opened.on('error', (error) => options.logger.debug({ err: error }, 'notification queue connection error'));
    }
    return opened;
  };
  const { settings } = options;
  return {
    queue,
    async notify(input) {
      const event = notificationEventSchema.parse({ ...input, occurredAt: input.occurredAt ?? new Date().toISOString() });
      const destinations = settings.destinations.filter((destination) => destination.events.includes(event.type));
      if (destinations.length === 0) return;
      await queue().addBulk(
        destinations.map((destination) => ({
          name: 'deliver',
          data: { event, destination: destination.name },
          opts: {
            jobId: deliveryIdOf(event.id, destination.name),
            attempts: settings.maxAttempts,
            backoff: { type: 'exponential', delay: settings.baseDelayMs },
            // Kept a week: the same event noticed again within it is not sent again.
            removeOnComplete: { age: 7 * 24 * 3600 },
            removeOnFail: { age: 30 * 24 * 3600 },
          },
        })),
      );
    },
    async close() {
      if (opened === undefined) return;
      await closeBullmq(opened);
    },
  };
}
