import type { ResolvedTarget } from '../plan/planned-row.js';
import { planReadingStands } from './plan-reading-stands.js';

/**
 * The row's state before as the plan read it (target.readAtPlan), when that reading still stands for the row run at
 * `nowMs` (service clock): a batch row acts for the instant it was planned, so it stands within PLAN_READING_STANDS_MS
 * of the reading, as a read just before the change would in a rate-limited batch. Undefined when the plan read nothing
 * for the row, its time is unknown, or it is older: the job type's readBefore reads it then.
 */
export function plannedStateBefore(target: Pick<ResolvedTarget, 'readAtPlan'>, nowMs: number): Record<string, unknown> | undefined {
  const reading = target.readAtPlan;
  if (reading === undefined) return undefined;
  const readAtMs = Date.parse(reading.readAt);
  return planReadingStands(readAtMs, readAtMs, nowMs) ? reading.state : undefined;
}
