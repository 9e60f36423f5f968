import type { PlannedLeaver } from './plan-offboarding.js';

/**
 * The calls an offboarding's leavers make once applied: deactivate, re-check after the hold, remove (three); one
 * already deactivated only the last two; a refused leaver none. What the plan read is spent already.
 */
export function leaverCalls(leavers: readonly Pick<PlannedLeaver, 'verdict'>[]): number {
  let calls = 0;
  for (const leaver of leavers) calls += leaver.verdict === 'refused' ? 0 : leaver.verdict === 'already-deactivated' ? 2 : 3;
  return calls;
}
