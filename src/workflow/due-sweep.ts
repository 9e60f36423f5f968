import type { Logger } from '../core/logger.js';

/** A sweep still running after this long is said to be stuck, and one more starts beside it. */
export const SWEEP_STUCK_MS = 30_000;

export interface DueSweepOptions {
  /** One sweep: refresh the service clock, promote what is due on it. */
  run(): Promise<unknown>;
  everyMs: number;
  logger: Logger;
  now?: () => number;
}

/**
 * A step worker's sweep of the steps due on the service clock, one at a time. While Redis is away every command waits,
 * so a sweep started each tick would pile up (after a failover, soak seed 6658 showed some twenty sweeps promoting the
 * same job at the same instant once Redis answered). A tick that finds a sweep still running skips, unless that sweep
 * has run for `SWEEP_STUCK_MS`: then it is said once, as a warning (a sweep that never ends promotes nothing, and due
 * steps would wait unseen), and a new sweep takes its place. Returns the timer's stop.
 */
export function startDueSweep(options: DueSweepOptions): () => void {
  const now = options.now ?? Date.now;
  let running: { since: number } | undefined;
  const timer = setInterval(() => {
    if (running !== undefined) {
      const waitedMs = now() - running.since;
      if (waitedMs < SWEEP_STUCK_MS) return;
      options.logger.warn({ waitedMs }, `the sweep of due steps has waited ${Math.round(waitedMs / 1000)} s (on Redis or the service clock): another starts beside it`);
    }
    const sweep = { since: now() };
    running = sweep;
    options
      .run()
      .catch((error: unknown) => options.logger.debug({ err: error }, 'could not promote the steps due on the service clock'))
      .finally(() => {
        if (running === sweep) running = undefined;
      });
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
