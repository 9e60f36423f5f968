import { ResourceNotFoundError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { LeaverState } from './leaver-state.js';
import { groupsOwnedBy, transferTargetProblem } from './transfer-target-check.js';

export type Recheck =
  | { kind: 'remove'; transferTo?: { email: string; userId: number }; note?: string }
  | { kind: 'skip'; reason: string }
  | { kind: 'fail'; reason: string };

export interface RecheckOptions {
  api: SmartsheetApi;
  /** --transfer-to of the offboarding: the fallback when the planned target can no longer take over. */
  fallback: string | undefined;
  leavingIn: (userId: number) => Promise<string | undefined>;
  signal?: AbortSignal;
}

/**
 * What the service says at the end of the hold: is the leaver still deactivated (someone may have reactivated them:
 * then they are not removed), and can the transfer target still take over (active, licensed, not leaving, a group
 * admin when there are groups)? Else --transfer-to, else the removal fails with the reason. Reads only.
 */
export async function recheckBeforeRemoval(leaver: LeaverState, options: RecheckOptions): Promise<Recheck> {
  const call = options.signal === undefined ? {} : { signal: options.signal };
  if (leaver.userId === undefined) return { kind: 'fail', reason: 'the leaver was never resolved to a user' };
  let profile;
  try {
    profile = await options.api.users.get(leaver.userId, { ...call, include: ['groups'] });
  } catch (error) {
    if (error instanceof ResourceNotFoundError) return { kind: 'skip', reason: 'no longer a user of the organization (removed by someone else during the hold)' };
    throw error;
  }
  if (profile.status !== undefined && profile.status !== 'DEACTIVATED') {
    return { kind: 'skip', reason: `reactivated by someone else during the hold (status ${profile.status}): not removed` };
  }
  const groups = groupsOwnedBy(profile) ?? leaver.stateBefore?.groupsOwned;
  const ownsGroups = (groups?.length ?? 0) > 0;
  const candidates = [leaver.transferTo?.email, options.fallback].filter((email): email is string => email !== undefined);
  const problems: string[] = [];
  for (const email of new Set(candidates)) {
    const user = await findTarget(options.api, email, leaver.transferTo, call);
    const problem = transferTargetProblem(email, user, { ownsGroups, leavingIn: user === undefined ? undefined : await options.leavingIn(user.id) });
    if (problem === undefined && user !== undefined) {
      return { kind: 'remove', transferTo: { email: user.email.toLowerCase(), userId: user.id }, ...(problems.length > 0 ? { note: `${problems.join('; ')}: transferred to --transfer-to ${email} instead` } : {}) };
    }
    if (problem !== undefined) problems.push(problem);
  }
  if (problems.length > 0) return { kind: 'fail', reason: `${problems.join('; ')}${options.fallback === undefined ? ' and no --transfer-to fallback was given' : ''}` };
  if (ownsGroups) return { kind: 'fail', reason: `owns ${groups?.length ?? 0} group(s) and has no transfer target` };
  return { kind: 'remove' };
}

async function findTarget(api: SmartsheetApi, email: string, planned: LeaverState['transferTo'], call: { signal?: AbortSignal }) {
  try {
    if (planned?.userId !== undefined && planned.email === email) return await api.users.get(planned.userId, call);
    const page = await api.users.listPage({ ...call, email: [email] });
    return page.data.find((user) => user.email.toLowerCase() === email);
  } catch (error) {
    if (error instanceof ResourceNotFoundError) return undefined;
    throw error;
  }
}
