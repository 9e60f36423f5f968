/** Time as seatflow sees it; tests pass a fake so that backoff arithmetic is checked without waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Reads the time again where it comes from elsewhere (the service's clock, see service-clock.ts): called before a
   * decision that depends on it (a step, a plan). Absent for a clock that is always current. A clock read from
   * elsewhere may skip a read made a moment ago; `fresh` reads anyway (a decision that a read a moment old would get
   * wrong: someone else found due what this reading says is early).
   */
  refresh?(fresh?: boolean): Promise<void>;
  /**
   * How far `now()` may be off the time it stands for (ms): a clock read from elsewhere is known only to within its
   * read (see service-clock.ts). Absent: exact.
   */
  uncertaintyMs?(): number;
}

/**
 * The latest time that has surely passed on this clock: its `now()` less its uncertainty. Something due at `dueAt`
 * may act once this reaches it, never sooner.
 */
export function surelyPassed(clock: Clock): number {
  return clock.now() - (clock.uncertaintyMs?.() ?? 0);
}

/** Milliseconds until `dueAt` has surely come on `clock` (0 when it has). */
export function msUntilDue(clock: Clock, dueAt: number): number {
  return Math.max(0, Math.ceil(dueAt - surelyPassed(clock)));
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
