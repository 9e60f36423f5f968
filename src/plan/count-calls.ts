import type { SmartsheetApi } from '../client/smartsheet-api.js';

export interface CountedApi {
  api: SmartsheetApi;
  /** Calls made through `api` so far. Only page-level methods are used by the pre-flight, so one call = one request. */
  calls(): number;
}

/** Wraps every method of every resource of `api` so that each invocation is counted. */
export function countCalls(api: SmartsheetApi): CountedApi {
  let calls = 0;
  const wrap = <T extends object>(resource: T): T =>
    new Proxy(resource, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const counted: SmartsheetApi = {
    users: wrap(api.users),
    alternateEmails: wrap(api.alternateEmails),
    discussions: wrap(api.discussions),
    columns: wrap(api.columns),
    webhooks: wrap(api.webhooks),
    sheets: wrap(api.sheets),
  };
  return { api: counted, calls: () => calls };
}

/** True when `error` is the service's "not found" (HTTP 404), whatever client raised it. */
export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 404;
}
