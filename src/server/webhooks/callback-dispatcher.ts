import { randomUUID } from 'node:crypto';
import type { CallbackEvent, Callback } from '../../contract/index.js';
import type { MutationLog } from '../sim/mutation-log.js';
import type { SimClock } from '../sim/sim-clock.js';
import type { WebhookRecord } from '../state/records.js';
import { sendCallback } from './send-callback.js';
import { verifyCallback } from './verify-callback.js';

/** How the reference server delivers callbacks (docs/reference-server.md#callbacks). */
export interface CallbackSettings {
  /** Events of one webhook arriving within this long go out as one callback. */
  debounceMs: number;
  /** The waits before each retry of a callback that failed; after the last, the webhook is disabled. */
  retryDelaysMs: readonly number[];
  /** Timeout of one delivery attempt. */
  timeoutMs: number;
  /** The verification handshake is repeated before every this-many-th callback. */
  reverifyEvery: number;
  verificationTimeoutMs: number;
}

/** The service's own schedule: 14 attempts, the first 7 with exponential backoff, then every 3 hours. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  ...[1, 2, 4, 8, 16, 32, 64].map((seconds) => seconds * 1000),
  ...Array.from({ length: 6 }, () => 3 * 3_600_000),
];

/** The most events one callback carries; the rest follow in the next one. */
const MAX_EVENTS_PER_CALLBACK = 500;

interface WebhookQueue {
  pending: CallbackEvent[];
  /** Attempts so far of the callback at the head of `pending` (0 before its first). */
  attempt: number;
  timer?: NodeJS.Timeout;
  sending: boolean;
  sinceVerified: number;
}

export interface CallbackDispatcher {
  /** Queues an event for an enabled webhook; it goes out after the debounce, after any callback still retrying. */
  enqueue(webhook: WebhookRecord, event: CallbackEvent): void;
  /** Drops every queue (the state was reset or replaced). */
  clear(): void;
  /** Resolves when nothing is queued or being sent (tests, shutdown). */
  idle(): Promise<void>;
  close(): void;
}

export interface CallbackDispatcherDeps {
  /** The webhooks as they are now: a reset or load replaces the state, so it is read at each send. */
  webhook(id: number): WebhookRecord | undefined;
  clock: SimClock;
  mutations: MutationLog;
  settings: CallbackSettings;
}

/**
 * Sends each enabled webhook's events to its callback URL as the service does (docs/service.md#events): batched,
 * serialized per webhook (one callback at a time, in order), each attempt with its own nonce and time and signed with
 * the shared secret held at that moment; a failed callback is retried with backoff (events arriving meanwhile join it),
 * and after the last retry the webhook is disabled (`DISABLED_CALLBACK_FAILED`, `disabledDetails`). `stats` record
 * every attempt. Timers are process timers, never keeping the process alive.
 */
export function createCallbackDispatcher(deps: CallbackDispatcherDeps): CallbackDispatcher {
  const queues = new Map<number, WebhookQueue>();
  let closed = false;
  let waiters: (() => void)[] = [];

  const busy = (): boolean => [...queues.values()].some((q) => q.pending.length > 0 || q.sending);
  function settle(): void {
    if (busy()) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  }

  function schedule(id: number, queue: WebhookQueue, delayMs: number): void {
    if (closed || queue.timer !== undefined || queue.sending) return;
    queue.timer = setTimeout(() => {
      queue.timer = undefined;
      void flush(id, queue);
    }, delayMs);
    queue.timer.unref();
  }

  function drop(id: number): void {
    const queue = queues.get(id);
    if (queue?.timer !== undefined) clearTimeout(queue.timer);
    queues.delete(id);
  }

  function disable(webhook: WebhookRecord, status: WebhookRecord['status'], detail: string): void {
    webhook.enabled = false;
    webhook.status = status;
    webhook.disabledDetails = detail;
    webhook.modifiedAt = deps.clock.now();
    deps.mutations.record({ operation: 'disableWebhook', resourceType: 'webhook', resourceId: webhook.id, summary: `${status}: ${detail}` });
    drop(webhook.id);
  }

  async function flush(id: number, queue: WebhookQueue): Promise<void> {
    const webhook = deps.webhook(id);
    // Deleted, disabled or reset meanwhile: what was queued for it is not sent.
    if (webhook === undefined || !webhook.enabled || queues.get(id) !== queue) {
      drop(id);
      settle();
      return;
    }
    queue.sending = true;
    try {
      if (queue.sinceVerified >= deps.settings.reverifyEvery) {
        const verified = await verifyCallback(webhook, deps.settings.verificationTimeoutMs);
        if (!verified.ok) return disable(webhook, 'DISABLED_VERIFICATION_FAILED', verified.detail);
        queue.sinceVerified = 0;
      }
      const events = queue.pending.slice(0, MAX_EVENTS_PER_CALLBACK);
      const now = deps.clock.now();
      const callback: Callback = {
        nonce: randomUUID(),
        timestamp: new Date(now).toISOString(),
        webhookId: webhook.id,
        scope: webhook.scope,
        scopeObjectId: webhook.scopeObjectId,
        events,
      };
      webhook.stats = { ...webhook.stats, lastCallbackAttempt: now, lastCallbackAttemptRetryCount: queue.attempt };
      const outcome = await sendCallback(webhook, JSON.stringify(callback), deps.settings.timeoutMs);
      if (outcome.kind === 'delivered') webhook.stats = { ...webhook.stats, lastSuccessfulCallback: now };
      if (outcome.kind !== 'retry') {
        queue.pending.splice(0, events.length);
        queue.attempt = 0;
        queue.sinceVerified += 1;
      } else {
        queue.attempt += 1;
        const wait = deps.settings.retryDelaysMs[queue.attempt - 1];
        if (wait === undefined) {
          return disable(webhook, 'DISABLED_CALLBACK_FAILED', `Callbacks failed ${queue.attempt} times in a row; the last: ${outcome.detail}`);
        }
        queue.sending = false;
        return schedule(id, queue, wait);
      }
    } finally {
      queue.sending = false;
      if (queues.get(id) === queue && queue.pending.length > 0 && queue.timer === undefined) schedule(id, queue, deps.settings.debounceMs);
      settle();
    }
  }

  return {
    enqueue(webhook, event) {
      if (closed) return;
      let queue = queues.get(webhook.id);
      if (queue === undefined) {
        queue = { pending: [], attempt: 0, sending: false, sinceVerified: 0 };
        queues.set(webhook.id, queue);
      }
      queue.pending.push(event);
      schedule(webhook.id, queue, deps.settings.debounceMs);
    },
    clear() {
      for (const id of [...queues.keys()]) drop(id);
      settle();
    },
    idle() {
      return busy() ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve();
    },
    close() {
      closed = true;
      for (const id of [...queues.keys()]) drop(id);
      settle();
    },
  };
}
