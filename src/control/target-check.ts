import { ApiError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { withTimeout } from './with-redis.js';

export interface TargetCheckResult {
  ok: boolean;
  message?: string;
  /** When this answer was learned (ISO). */
  checkedAt: string;
}

/**
 * Whether the access token works against the target, asked with GET /users/me and remembered for `cacheMs`, so that
 * probes every few seconds do not spend the request budget. One check runs at a time; callers during it share it.
 */
export function createTargetCheck(api: Pick<SmartsheetApi, 'users'>, options: { cacheMs: number; timeoutMs: number; now?: () => number }): () => Promise<TargetCheckResult> {
  const now = options.now ?? Date.now;
  let last: { at: number; result: TargetCheckResult } | undefined;
  let running: Promise<TargetCheckResult> | undefined;
  const check = async (): Promise<TargetCheckResult> => {
    const checkedAt = new Date(now()).toISOString();
    try {
      const me = await withTimeout(api.users.getCurrent(), options.timeoutMs, () => new Error(`no answer within ${options.timeoutMs} ms`));
      if (me.admin !== true) return { ok: false, message: `the access token acts for ${me.email ?? 'a user'}, who is not a System Admin`, checkedAt };
      return { ok: true, checkedAt };
    } catch (error) {
      const message = error instanceof ApiError ? `${error.category} (${error.status}): ${error.message}` : error instanceof Error ? error.message : String(error);
      return { ok: false, message: `the target refused or did not answer the token check: ${message}`, checkedAt };
    }
  };
  return async () => {
    if (last !== undefined && now() - last.at < options.cacheMs) return last.result;
    running ??= check().then((result) => {
      last = { at: now(), result };
      running = undefined;
      return result;
    });
    return running;
  };
}
