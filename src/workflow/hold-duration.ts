import type { Config } from '../core/config.js';
import { UsageError } from '../core/seatflow-error.js';
import { plural } from '../core/plural.js';

const SECOND = 1000;
const UNITS = { s: SECOND, m: 60 * SECOND, h: 3600 * SECOND, d: 86_400 * SECOND, w: 7 * 86_400 * SECOND } as const;

/** What `--help` and every refusal say a hold may be written as. */
export const HOLD_UNITS = 'a number and a unit: m minutes, h hours, d days, w weeks (7d, 36h, 90m, 1.5d); a bare number is days';

/** `--hold 7d`, `36h`, `90m`, `1w`, `1.5d` → ms. A bare number is days. */
export function parseHold(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([mhdw]?)\s*$/i.exec(text);
  if (match === null) throw new UsageError(`--hold "${text}" is not a duration`, `Write ${HOLD_UNITS}.`);
  const unit = (match[2] || 'd').toLowerCase() as 'm' | 'h' | 'd' | 'w';
  return Math.round(Number(match[1]) * UNITS[unit]);
}

/** The hold of a command: the one given (`--hold`, `?hold=`), else config offboarding.defaultHoldDays. */
export function holdOf(text: string | undefined, offboarding: Pick<Config['offboarding'], 'defaultHoldDays'>): number {
  return text === undefined ? offboarding.defaultHoldDays * UNITS.d : parseHold(text);
}

/**
 * ms → the largest unit that says it exactly (`7d`, `36h`, `90m`, `30s`): never rounded, so `--hold 0.5m` shows as
 * `30s`, not `1m`.
 */
export function formatHold(ms: number): string {
  if (ms === 0) return '0';
  for (const unit of ['d', 'h', 'm', 's'] as const) if (ms % UNITS[unit] === 0) return `${ms / UNITS[unit]}${unit}`;
  return `${ms / SECOND}s`;
}

export interface HoldChoice {
  /** `--no-undo-window`: the operator accepts a hold below offboarding.minHoldHours (down to none). */
  noUndoWindow?: boolean;
}

/**
 * A hold is refused when it outlasts the reactivation window (undo must be able to reactivate until the removal), or
 * when it is shorter than offboarding.minHoldHours without `--no-undo-window` (`--hold 0` would remove a leaver in
 * the second they are deactivated, with no time for anyone to undo a mistake).
 */
export function checkHold(holdMs: number, offboarding: Pick<Config['offboarding'], 'reactivationWindowDays' | 'minHoldHours'>, choice: HoldChoice = {}): void {
  const windowDays = offboarding.reactivationWindowDays;
  if (holdMs > windowDays * UNITS.d) {
    throw new UsageError(
      `the hold (${formatHold(holdMs)}) is longer than the reactivation window (${plural(windowDays, 'day')}): undo would no longer be possible at its end`,
      `Choose --hold ${windowDays}d or less (config offboarding.reactivationWindowDays is ${windowDays}: how long the service lets a deactivated user be reactivated).`,
    );
  }
  const minimumMs = offboarding.minHoldHours * UNITS.h;
  if (holdMs < minimumMs && choice.noUndoWindow !== true) {
    throw new UsageError(
      `the hold (${formatHold(holdMs)}) is shorter than the minimum of ${formatHold(minimumMs)} (config offboarding.minHoldHours): it leaves no time to undo a mistake before the removal`,
      `Choose --hold ${formatHold(minimumMs)} or more (${HOLD_UNITS}), or say --no-undo-window to remove the leavers that soon after the deactivation.`,
    );
  }
}
