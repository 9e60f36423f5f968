import { expect } from 'vitest';
import type { Mutation } from '../../src/server/sim/mutation-log.js';
import type { BatchHarness } from './batch-harness.js';
import { seatflowProcesses, type SeatflowProcesses } from './seatflow-processes.js';

/**
 * seatflow as an operator runs it for timed lifecycles: separate `seatflow worker` processes whose periodic checks
 * (lost rows, due steps, schedules) all run every half second, so that a mechanism acting early does so within the
 * test. The reference server's clock is the service's; moving it is how days pass.
 */
export interface TimedProcesses extends SeatflowProcesses {
  /** Moves the service clock by `ms`. */
  advance(ms: number): void;
  /** Runs `check` until it holds (50 ms apart), failing after `timeoutMs` of real time. */
  until(check: () => Promise<boolean> | boolean, timeoutMs?: number): Promise<void>;
  /** Waits `ms` of real time: long enough for every periodic check of the workers to have run several times. */
  idle(ms?: number): Promise<void>;
  /** The mutation log's entries about one user (by e-mail, as the server knows it now or knew it). */
  changesOf(email: string): Promise<Mutation[]>;
}

export const FAST_CHECKS = {
  worker: { concurrency: 4, lockDurationMs: 2000, stalledIntervalMs: 1000, shutdownGraceMs: 2000, lostRowCheckMs: 500 },
  offboarding: { stepPollMs: 100, dueSweepMs: 500 },
};

export function timedProcesses(h: BatchHarness, redisUrl: string, config: Record<string, unknown> = {}): TimedProcesses {
  const processes = seatflowProcesses(h, redisUrl, { ...FAST_CHECKS, ...config });
  const clock = h.server.context.clock;
  const idsByEmail = new Map<string, number>();
  return {
    ...processes,
    advance: (ms) => clock.advance(ms),
    async until(check, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error('condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    idle: (ms = 3000) => new Promise((resolve) => setTimeout(resolve, ms)),
    async changesOf(email) {
      const user = [...h.server.context.state.users.values()].find((u) => u.email === email);
      if (user !== undefined) idsByEmail.set(email, user.id);
      const id = idsByEmail.get(email);
      return id === undefined ? [] : (await h.mutations()).filter((m) => m.userId === id);
    },
  };
}

/** Every change of the user happened at or after `dueMs` on the service clock. */
export function expectNoneBefore(changes: readonly Mutation[], dueMs: number): void {
  for (const change of changes) expect(Date.parse(change.at), `${change.operation} at ${change.at}, due ${new Date(dueMs).toISOString()}`).toBeGreaterThanOrEqual(dueMs);
}
