import { randomUUID } from 'node:crypto';
import { CALLBACK_CHALLENGE_HEADER, CALLBACK_SIGNATURE_HEADER, callbackChallengeSchema } from '../contract/index.js';
import type { Logger } from '../core/logger.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import { setOnce } from '../queue/redis/set-once.js';
import { checkCallback, signatureMatches, type CallbackRefusal } from './check-callback.js';
import type { EventKeys } from './event-keys.js';
import type { CallbackInbox } from './event-queue.js';
import { secretsOf, type Subscription, type SubscriptionStore } from './subscription-store.js';

/** Where `seatflow serve` takes the service's callbacks (docs/events.md#the-callback-endpoint). */
export const CALLBACK_PATH = '/hooks/smartsheet';

/** What the endpoint answers: a challenge echoed, a callback taken, or a refusal that changed nothing. */
export type IntakeAnswer =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'taken'; events: number }
  | { kind: 'refused'; refusal: CallbackRefusal | 'not-subscribed'; message: string };

export interface CallbackIntakeDeps {
  redis: RedisClient;
  keys: Pick<EventKeys, 'nonce' | 'counters'>;
  subscriptions: Pick<SubscriptionStore, 'get' | 'adopt'>;
  inbox: Pick<CallbackInbox, 'add'>;
  /** The service's time (ms); `fresh` asks it again first (a moved reference-server clock). */
  serviceNow(fresh: boolean): Promise<number>;
  /** How far a callback's timestamp may be from the service's time. */
  toleranceMs: number;
  /**
   * The webhook's shared secret as the service holds it now (GET /webhooks/{id}), when a signature does not verify:
   * the secret was reset elsewhere, or a rotation's last step was lost. At most once per `refreshEveryMs`.
   */
  readSecret?: (webhookId: number) => Promise<string | undefined>;
  refreshEveryMs?: number;
  /** How long the secret before a rotation is still taken. */
  rotationGraceMs: number;
  now(): number;
  logger: Logger;
}

export interface CallbackIntake {
  take(raw: string, headers: Record<string, string | string[] | undefined>): Promise<IntakeAnswer>;
}

/**
 * The callback endpoint's logic (docs/events.md#the-callback-endpoint), apart from HTTP: answers the verification
 * challenge of the subscribed webhook; takes a callback only when it parses, names the subscribed webhook, verifies
 * with the shared secret (or the one before a rotation, for a while), carries a timestamp within the window and a
 * nonce never seen; then keeps it in the inbox before answering. A refusal changes nothing.
 */
export function createCallbackIntake(deps: CallbackIntakeDeps): CallbackIntake {
  let lastRefresh = -Infinity;

  /** The secrets to try again after reading the service's, when the last read is long enough ago. */
  async function refreshedSecrets(subscription: Subscription): Promise<string[] | undefined> {
    const now = deps.now();
    if (deps.readSecret === undefined || now - lastRefresh < (deps.refreshEveryMs ?? 30_000)) return undefined;
    lastRefresh = now;
    const secret = await deps.readSecret(subscription.webhookId).catch((error: unknown) => {
      deps.logger.warn({ err: error }, "could not read the webhook's shared secret from the service");
      return undefined;
    });
    if (secret === undefined || secret === subscription.secret) return undefined;
    await deps.subscriptions.adopt(secret, now, deps.rotationGraceMs);
    deps.logger.warn({ webhook: subscription.webhookId }, 'the webhook\'s shared secret was reset outside `seatflow webhooks rotate`: seatflow now uses the one the service holds');
    return [secret, subscription.secret];
  }

  const refuse = async (refusal: CallbackRefusal | 'not-subscribed', message: string): Promise<IntakeAnswer> => {
    await deps.redis.hincrby(deps.keys.counters, `refused.${refusal}`, 1).catch(() => undefined);
    return { kind: 'refused', refusal, message };
  };

  return {
    async take(raw, headers) {
      const subscription = await deps.subscriptions.get();
      if (subscription === undefined) return refuse('not-subscribed', 'this seatflow has no subscription (seatflow webhooks subscribe)');
      const signature = single(headers[CALLBACK_SIGNATURE_HEADER]);
      const challenge = single(headers[CALLBACK_CHALLENGE_HEADER]);
      if (challenge !== undefined) return answerChallenge(raw, challenge, signature, subscription);

      const check = async (secrets: readonly string[], fresh: boolean) =>
        checkCallback({ raw, signature, webhookId: subscription.webhookId, secrets, serviceNowMs: await deps.serviceNow(fresh), toleranceMs: deps.toleranceMs });
      let result = await check(secretsOf(subscription, deps.now()), false);
      if (!result.ok && result.refusal === 'signature') {
        const secrets = await refreshedSecrets(subscription);
        if (secrets !== undefined) result = await check(secrets, false);
      }
      // The service's clock may have moved since it was last read (a rehearsal moving the reference server's clock).
      if (!result.ok && result.refusal === 'stale') result = await check(secretsOf(subscription, deps.now()), true);
      if (!result.ok) return refuse(result.refusal, result.message);

      const { callback } = result;
      const nonceKey = deps.keys.nonce(callback.nonce);
      // Kept while a replay could still be within the window on either side of the service's time. The value is this
      // take's own: a SET that ioredis sent again after losing its answer finds it, and this take is not a replay.
      const fresh = await setOnce(deps.redis, nonceKey, randomUUID(), 2 * deps.toleranceMs + 60_000);
      if (!fresh) return refuse('replayed', `nonce ${callback.nonce} was already taken: a callback is handled once`);
      try {
        await deps.inbox.add(callback);
      } catch (error) {
        // Not kept: the service delivers it again, and its nonce must not refuse that.
        await deps.redis.del(nonceKey).catch(() => undefined);
        throw error;
      }
      await deps.redis.hincrby(deps.keys.counters, 'taken', 1).catch(() => undefined);
      return { kind: 'taken', events: callback.events?.length ?? 0 };
    },
  };

  async function answerChallenge(raw: string, challenge: string, signature: string | undefined, subscription: Subscription): Promise<IntakeAnswer> {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const parsed = callbackChallengeSchema.safeParse(body);
    if (parsed.success && parsed.data.webhookId !== subscription.webhookId) return refuse('unknown-webhook', `webhook ${parsed.data.webhookId} is not the one this seatflow subscribed`);
    // A signed challenge must verify: a stranger cannot make seatflow vouch for a webhook of theirs.
    if (signature !== undefined && !secretsOf(subscription, deps.now()).some((secret) => signatureMatches(secret, raw, signature))) {
      return refuse('signature', 'the challenge is signed, and the signature does not verify with the shared secret');
    }
    return { kind: 'challenge', challenge };
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
