import type { ChangePromise, PromiseState } from './promise.js';

/**
 * Every promise of a run, by key. Operator actions add what a plan showed and amend it as people act on it (approve,
 * reject, undo, cancel, run a step now); the oracle reads it at the end.
 */
export interface Ledger {
  promise(promise: Omit<ChangePromise, 'history' | 'since'> & { since?: number }): void;
  get(key: string): ChangePromise | undefined;
  /** Promises whose key starts with `prefix` (a batch's or a workflow's). */
  byPrefix(prefix: string): ChangePromise[];
  /** Moves a promise to `state` at service time `at`, noting why. Unknown keys are ignored (returns false). */
  amend(key: string, change: { state?: PromiseState; notBefore?: number }, at: number, note: string): boolean;
  all(): ChangePromise[];
}

export function createLedger(): Ledger {
  const promises = new Map<string, ChangePromise>();
  return {
    promise(promise) {
      if (promises.has(promise.key)) throw new Error(`promise ${promise.key} was made twice`);
      promises.set(promise.key, { ...promise, since: promise.since ?? promise.notBefore, history: [] });
    },
    get: (key) => promises.get(key),
    byPrefix: (prefix) => [...promises.values()].filter((promise) => promise.key.startsWith(prefix)),
    amend(key, change, at, note) {
      const promise = promises.get(key);
      if (promise === undefined) return false;
      if (change.state !== undefined && change.state !== promise.state) {
        promise.state = change.state;
        promise.since = at;
      }
      if (change.notBefore !== undefined) promise.notBefore = change.notBefore;
      promise.history.push(`${new Date(at).toISOString()} ${note}`);
      return true;
    },
    all: () => [...promises.values()],
  };
}
