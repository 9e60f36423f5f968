import type { Config } from '../core/config.js';
import type { ScheduleData } from './schedule-book.js';

const percent = (share: number) => `${(100 * share).toFixed(1)}%`;

/**
 * How a schedule's applied runs are held, in one sentence for `schedule add`, `schedule list` and the dashboard.
 * Nobody can confirm a scheduled run: with limits of its own it runs within them without confirmation; without, a run
 * above the config guardrails is held and changes nothing.
 */
export function describeScheduleLimits(limits: ScheduleData['limits'], guardrails: Pick<Config['guardrails'], 'destructiveMaxCount' | 'destructiveMaxShare'>): string {
  if (limits !== undefined && (limits.maxChanges !== undefined || limits.maxShare !== undefined)) {
    const parts = [
      ...(limits.maxChanges === undefined ? [] : [`${limits.maxChanges} seat change(s)`]),
      ...(limits.maxShare === undefined ? [] : [`${percent(limits.maxShare)} of the plan's users`]),
    ];
    return `a run may change up to ${parts.join(' and ')} without confirmation (--max-changes/--max-share); a run above that is held and changes nothing`;
  }
  return (
    `a run above guardrails.destructiveMaxCount (${guardrails.destructiveMaxCount}) or guardrails.destructiveMaxShare (${percent(guardrails.destructiveMaxShare)}) ` +
    'is held and changes nothing: a schedule cannot confirm (add it again with --max-changes N / --max-share F to let it act within limits of its own)'
  );
}
