import { createHash } from 'node:crypto';
import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { callbackSchema, type Callback } from '../contract/index.js';
import type { Logger } from '../core/logger.js';
import { closeBullmq } from '../queue/redis/close-bullmq.js';
import { logBullmqError } from '../queue/redis/connection-lost.js';
import type { RedisClient, ReplicaAcks } from '../queue/redis/lua-script.js';
import { createReplicatedWrites, type ReplicatedWrites } from '../queue/redis/replicated-write.js';
import { eventsQueueNameOf } from './event-keys.js';

/** A callback taken by the endpoint: verified, its nonce recorded, waiting to be handled. */
export interface CallbackJobData {
  callback: Callback;
  /** ISO, this machine's clock. */
  receivedAt: string;
}

export interface EventQueueOptions {
  connection: ConnectionOptions;
  prefix: string;
  /** The queue target whose callbacks these are. */
  target: string;
  logger: Logger;
  /**
   * Replicas a taken callback must reach before the service is told so (behind Sentinel, on a cluster: the service
   * does not deliver a callback again once answered). None by default.
   */
  replicas?: ReplicaAcks;
  /** How long a taken callback waits for a replica before it is refused (default: the replicated writes' patience). */
  replicaPatienceMs?: number;
}

export interface CallbackInbox {
  /** Keeps a verified callback durably before the endpoint answers 200: a crash after the answer loses nothing. */
  add(callback: Callback): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where the callback endpoint puts what it takes: a BullMQ queue per target, so answering the service takes one Redis
 * write and the handling (reads of the service, the audit trail, drift) happens beside it, retried with backoff.
 */
export function createCallbackInbox(options: EventQueueOptions): CallbackInbox {
  let queue: Queue<CallbackJobData> | undefined;
  let ordered: Promise<unknown> | undefined;
  let replicated: Promise<ReplicatedWrites> | undefined;
  const open = (): Queue<CallbackJobData> => {
    if (queue === undefined) {
      queue = new Queue<CallbackJobData>(eventsQueueNameOf(options.target), { connection: options.connection, prefix: options.prefix });
      queue.on('error', (error) => options.logger.debug({ err: error }, 'event queue connection error'));
    }
    return queue;
  };
  return {
    async add(callback) {
      // One callback handled at a time across every serve of the target, so a user's events never overtake each other.
      ordered ??= open()
        .setGlobalConcurrency(1)
        .catch((error: unknown) => {
          // Asked again with the next callback: a Redis that did not answer now may answer then.
          ordered = undefined;
          throw error;
        });
      await ordered;
      const inbox = open();
      const data = { callback, receivedAt: new Date().toISOString() };
      const write = () =>
        inbox.add('callback', data, {
          // One job per delivery: the same callback taken twice (it cannot be: its nonce is kept), or added again
          // because no replica took it in time, is one job.
          jobId: `c${createHash('sha256').update(`${callback.webhookId}\n${callback.nonce}`).digest('hex').slice(0, 24)}`,
          attempts: 20,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: { age: 7 * 24 * 3600 },
          removeOnFail: { age: 30 * 24 * 3600 },
        });
      const replicas = options.replicas;
      if (replicas === undefined || replicas.count === 0) {
        await write();
        return;
      }
      // On BullMQ's own connection (an ioredis client): WAIT counts the writes of the connection that made them.
      replicated ??= inbox.client.then((redis) => createReplicatedWrites({ redis: redis as unknown as RedisClient, replicas, logger: options.logger, what: 'callback inbox', reconnects: false, ...(options.replicaPatienceMs === undefined ? {} : { patienceMs: options.replicaPatienceMs }) }));
      // Required: a callback answered 200 is never sent again, so one no replica took is refused instead (the
      // service sends it again later, and its events act once: handle-callback.ts). Soak seed 5002: an outside change
      // taken while replicas were missing, then lost in a failover, had no audit entry.
      await (await replicated).write(inbox.keys.meta!, write, { required: true });
    },
    async close() {
      if (queue !== undefined) await closeBullmq(queue);
    },
  };
}

export interface EventWorker {
  worker: Worker<CallbackJobData>;
  close(graceMs: number): Promise<void>;
}

/**
 * Handles the target's callbacks one at a time, in the order they were taken (a user's events must not overtake each
 * other: the queue's global concurrency is 1, whatever number of serve processes run); a handling that fails (the
 * service or Redis not answering) is tried again with backoff. Started by `seatflow serve`, which takes the callbacks.
 */
export function startEventWorker(options: EventQueueOptions & { handle(callback: Callback): Promise<unknown> }): EventWorker {
  const worker = new Worker<CallbackJobData>(
    eventsQueueNameOf(options.target),
    async (job: Job<CallbackJobData>) => options.handle(callbackSchema.parse(job.data.callback)),
    { connection: options.connection, prefix: options.prefix, concurrency: 1 },
  );
  worker.on('error', logBullmqError(options.logger, 'event worker'));
  worker.on('failed', (job, error) => options.logger.warn({ err: error, job: job?.id, attempts: job?.attemptsMade }, 'handling a callback failed; it is tried again'));
  return { worker, close: (graceMs) => closeBullmq(worker, { graceMs }) };
}
