import { UsageError } from '../core/seatflow-error.js';
import { plural } from '../core/plural.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `--hold 7d`, `36h`, `90m`, `1w` → ms. A bare number is days. */
export function parseHold(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([mhdw]?)\s*$/i.exec(text);
  if (match === null) throw new UsageError(`--hold "${text}" is not a duration`, 'Write it like 7d, 36h or 90m (a bare number is days).');
  return Math.round(Number(match[1]) * (UNITS[(match[2] || 'd').toLowerCase()] ?? 0));
}

/** ms → the shortest exact spelling (`7d`, `36h`, `90m`). */
export function formatHold(ms: number): string {
  for (const [unit, size] of [['d', UNITS.d], ['h', UNITS.h]] as const) if (size !== undefined && ms % size === 0) return `${ms / size}${unit}`;
  return `${Math.round(ms / 60_000)}m`;
}

/** The hold can never outlast the reactivation window: undo must be able to reactivate until the removal. */
export function checkHold(holdMs: number, windowDays: number): void {
  const windowMs = windowDays * UNITS.d!;
  if (holdMs > windowMs) {
    throw new UsageError(
      `the hold (${formatHold(holdMs)}) is longer than the reactivation window (${plural(windowDays, 'day')}): undo would no longer be possible at its end`,
      `Choose --hold ${windowDays}d or less (config offboarding.reactivationWindowDays is ${windowDays}; the real service allows 7 days).`,
    );
  }
}
