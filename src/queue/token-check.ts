import { isApiError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Logger } from '../core/logger.js';
import type { RedisClient } from './redis/lua-script.js';
import type { QueueKeys } from './queue-keys.js';

export interface TokenCheckOptions {
  redis: RedisClient;
  keys: QueueKeys;
  api: SmartsheetApi;
  logger: Logger;
  /** How long a verdict stands for every worker of the batch. Default 60 s. */
  verdictTtlMs?: number;
  /** How long the worker re-reading the token may hold the lock before another one takes over. Default 15 s. */
  lockMs?: number;
  /** How often a waiting worker looks for the verdict. Default 200 ms. */
  pollMs?: number;
}

/** Whether the batch's token still belongs to a System Admin: true, false, or undefined when the re-read failed. */
export interface TokenCheck {
  stillSystemAdmin(batchId: string): Promise<boolean | undefined>;
}

const ADMIN = 'admin';
const NOT_ADMIN = 'not-admin';

/**
 * The re-read of a batch's own token after a 403/1004 (docs/service.md#errors): GET /users/me once for the whole fleet, the
 * verdict kept in Redis for a short time. One worker takes a lock and reads; the others wait for its verdict, so a
 * burst of 403s on many rows costs one call, not one per row. The verdict expires so that a token whose rights change
 * later in a long batch is read again.
 */
export function createTokenCheck(options: TokenCheckOptions): TokenCheck {
  const { redis, keys, api } = options;
  const ttlMs = options.verdictTtlMs ?? 60_000;
  const lockMs = options.lockMs ?? 15_000;
  const pollMs = options.pollMs ?? 200;
  // Rows of one process that ask at once share one answer.
  const pending = new Map<string, Promise<boolean | undefined>>();

  const asBoolean = (verdict: string | null): boolean | undefined => (verdict === ADMIN ? true : verdict === NOT_ADMIN ? false : undefined);

  async function readToken(batchId: string): Promise<boolean | undefined> {
    let verdict: boolean | undefined;
    try {
      const me = await api.users.getCurrent();
      verdict = me.admin === true;
    } catch (error) {
      // A refused token answers for itself; anything else (5xx, network) leaves the question open.
      verdict = isApiError(error) && error.category === 'Authorization' ? false : undefined;
      if (verdict === undefined) options.logger.warn({ err: error }, 're-reading the access token failed');
    }
    if (verdict !== undefined) await redis.set(keys.tokenVerdict(batchId), verdict ? ADMIN : NOT_ADMIN, 'PX', ttlMs);
    await redis.del(keys.tokenVerdictLock(batchId));
    options.logger.info({ batch: batchId, systemAdmin: verdict }, 'access token re-read after a 403 not-authorized');
    return verdict;
  }

  async function decide(batchId: string): Promise<boolean | undefined> {
    const deadline = Date.now() + lockMs;
    for (;;) {
      const cached = asBoolean(await redis.get(keys.tokenVerdict(batchId)));
      if (cached !== undefined) return cached;
      if ((await redis.set(keys.tokenVerdictLock(batchId), '1', 'PX', lockMs, 'NX')) === 'OK') return readToken(batchId);
      // Another worker is reading; past the deadline its lock has expired and the next round takes it.
      if (Date.now() > deadline + pollMs) return readToken(batchId);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  return {
    stillSystemAdmin(batchId) {
      const running = pending.get(batchId);
      if (running !== undefined) return running;
      const next = decide(batchId).finally(() => pending.delete(batchId));
      pending.set(batchId, next);
      return next;
    },
  };
}
