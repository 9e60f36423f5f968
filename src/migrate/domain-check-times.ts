import { CHECK_STEPS } from './domain-lifecycle.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** After the start: soon (most owners click within the hour), then less often (those who are away). */
const AFTER_START_MS = [HOUR, DAY, 3 * DAY, 7 * DAY];

/**
 * When an address waiting for its owner is looked at again: at most as many checks as there are check steps, the last
 * one at the deadline (`confirmWithinDays` after the start), which ends the wait. Due times on the service clock.
 */
export function checkTimes(startMs: number, confirmWithinDays: number): number[] {
  const deadline = startMs + confirmWithinDays * DAY;
  const before = AFTER_START_MS.map((offset) => startMs + offset).filter((at) => at < deadline);
  return [...before.slice(0, CHECK_STEPS.length - 1), deadline];
}
