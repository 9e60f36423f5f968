import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { LeaverState } from './leaver-state.js';
import { createGroupOwnershipReader, type GroupOwnership } from '../plan/group-ownership.js';
import { RULES } from '../plan/planned-row.js';
import { judgeRemoval, transferTargetProblem, type TransferCandidate } from '../plan/removal-preflight.js';
import type { TransferTargets } from './transfer-targets.js';

export type Recheck =
  | { kind: 'remove'; transferTo?: { email: string; userId: number }; note?: string; groups?: readonly { id: number; name: string }[] }
  | { kind: 'skip'; reason: string }
  | { kind: 'fail'; reason: string };

export interface RecheckOptions {
  api: SmartsheetApi;
  workflowId: string;
  /** --transfer-to of the offboarding: the fallback when the planned target can no longer take over. */
  fallback: string | undefined;
  leavingIn: (userId: number) => Promise<string | undefined>;
  /** Reads a target once per offboarding and step run (transfer-targets.ts). */
  targets: TransferTargets;
  signal?: AbortSignal;
}

/**
 * What the service says at the end of the hold: is the leaver still deactivated (someone may have reactivated them:
 * then they are not removed), and can the transfer target still take over? The same removal pre-flight as the plan
 * (src/plan/removal-preflight.ts: active, on a paid seat, not leaving, a group admin when there are groups), on what the
 * service says now. Else --transfer-to, else the removal fails with the reason. Reads only: the leaver once, each
 * target once per offboarding and step run.
 */
export async function recheckBeforeRemoval(leaver: LeaverState, options: RecheckOptions): Promise<Recheck> {
  if (leaver.userId === undefined) return { kind: 'fail', reason: 'the leaver was never resolved to a user' };
  const { profile, ownership } = await createGroupOwnershipReader(options.api).read(leaver.userId, options.signal);
  if (profile === undefined) return { kind: 'skip', reason: 'no longer a user of the organization (removed by someone else during the hold)' };
  if (profile.status !== undefined && profile.status !== 'DEACTIVATED') {
    return { kind: 'skip', reason: `reactivated by someone else during the hold (status ${profile.status}): not removed` };
  }
  // Groups the service does not list now were maybe listed at the leave date (the state before).
  const before = leaver.stateBefore?.groupsOwned;
  const groups: GroupOwnership = ownership.known || before === undefined ? ownership : { known: true, groups: before };
  const candidates: TransferCandidate[] = [];
  for (const [email, from] of [[leaver.transferTo?.email, 'row'], [options.fallback, 'fallback']] as const) {
    if (email === undefined || candidates.some((candidate) => candidate.named === email)) continue;
    const user = await options.targets.read({ workflowId: options.workflowId, email, planned: leaver.transferTo, api: options.api, ...(options.signal === undefined ? {} : { signal: options.signal }) });
    const candidate: TransferCandidate = { named: email, from, user, leavingIn: user === undefined ? undefined : await options.leavingIn(user.id) };
    // A target that cannot take over is read again by the next removal: it may be being fixed.
    if (transferTargetProblem(candidate, { user: profile, groups }) !== undefined) options.targets.forget(options.workflowId, email);
    candidates.push(candidate);
  }
  const verdict = judgeRemoval({ user: profile, groups, candidates, transferSheets: true });
  if (!verdict.ok) {
    const noFallback = verdict.rule === RULES.transferTargetInvalid && options.fallback === undefined ? ' and no --transfer-to fallback was given' : '';
    return { kind: 'fail', reason: `${verdict.reason}${noFallback}` };
  }
  const switched = verdict.notes.find((note) => note.includes('--transfer-to'));
  return {
    kind: 'remove',
    ...(verdict.transferTo === undefined ? {} : { transferTo: verdict.transferTo }),
    ...(switched === undefined ? {} : { note: switched.replace('transfers to --transfer-to', 'transferred to --transfer-to') }),
    // What the removal hands over: the groups the service lists now.
    ...(ownership.known ? { groups: ownership.groups } : {}),
  };
}
