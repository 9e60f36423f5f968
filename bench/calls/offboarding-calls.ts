import { readLeavers } from '../../src/workflow/read-leavers.js';
import { DAY, GUARDRAILS, OFFBOARDING, type CallEnv } from './call-env.js';
import { candidates, resolveFloor, type CallScenario, type ScenarioResult } from './call-scenario.js';

const RESTORABLE = new Set(['GUEST', 'CONTRIBUTOR', 'VIEWER']);

/** The admin of the demo organization: a group admin, so a removal to them never depends on the leaver's groups. */
const TARGET = 'admin@acme.example';

/** The leavers' file, planned and submitted as `seatflow offboard` does; resolves the workflow's id. */
async function offboard(env: CallEnv, emails: readonly string[], options: { holdMs: number; transferTo?: string }): Promise<string> {
  const file = env.h.writeManifest(`leavers-${emails.length}-${options.holdMs}.csv`, ['email', ...emails]);
  const plan = await env.offboarding.plan(await readLeavers({ path: file }), {
    api: env.h.api,
    config: { guardrails: GUARDRAILS, offboarding: OFFBOARDING },
    options: { holdMs: options.holdMs, noUndoWindow: options.holdMs === 0, removeFromSharing: false, ...(options.transferTo === undefined ? {} : { transferTo: options.transferTo }) },
  });
  const refused = plan.leavers.filter((leaver) => leaver.verdict === 'refused');
  if (refused.length > 0) throw new Error(`the plan refused ${refused.length} leavers: ${refused[0]!.reason ?? ''}`);
  return (await env.offboarding.submit(plan)).workflow.id;
}

/**
 * An offboarding of `people` leavers, deactivated now and removed after a zero hold (`--hold 0 --no-undo-window`), with
 * or without a transfer target: from the plan until the workflow closes.
 */
function offboardingScenario(transfer: boolean): CallScenario {
  return {
    name: transfer ? 'offboarding, transfer to a group admin' : 'offboarding, no transfer',
    organization: (people) => Math.max(2000, people * 3),
    async run(env, people): Promise<ScenarioResult> {
      const emails = candidates(env.h.server, people);
      const since = env.mark();
      const id = await offboard(env, emails, { holdMs: 0, ...(transfer ? { transferTo: TARGET } : {}) });
      await env.until(async () => (await env.offboarding.store.get(id))?.state === 'finished' && (await env.offboarding.settled(id)), 'the offboarding');
      const calls = env.callsSince(since);
      const status = await env.offboarding.status(id);
      if (status?.phases.removed !== people) throw new Error(`expected ${people} removed, got ${JSON.stringify(status?.phases)}`);
      const users = env.h.server.context.state.users.size;
      return {
        people,
        calls,
        minimum: transfer
          ? {
              perPerson: 3,
              fixed: 1 + resolveFloor(people, users) + 2,
              why: 'deactivate, re-check the leaver after the hold, remove; who-am-I, resolving the leavers, the target once at the plan and once at the removals',
            }
          : {
              perPerson: 4,
              fixed: 1 + resolveFloor(people, users),
              why: 'the groups the leaver owns (the plan: a group owner cannot be removed without a target), deactivate, re-check after the hold, remove; who-am-I, resolving the leavers',
            },
        note: `${people} removed`,
      };
    },
  };
}

/** Undo of an offboarding in its hold: every leaver reactivated, and the seat held before given back where it was lower. */
const undoScenario: CallScenario = {
  name: 'undo of an offboarding in its hold',
  organization: (people) => Math.max(2000, people * 3),
  async run(env, people): Promise<ScenarioResult> {
    const emails = candidates(env.h.server, people);
    // A downgrade gives back GUEST or CONTRIBUTOR (formerly VIEWER); a Provisional Member's seat cannot be given back.
    const byEmail = new Map([...env.h.server.context.state.users.values()].map((user) => [user.email, user]));
    const lowerSeat = emails.filter((email) => byEmail.get(email)?.seats.some((seat) => RESTORABLE.has(seat.seatType))).length;
    const id = await offboard(env, emails, { holdMs: DAY });
    await env.until(() => env.offboarding.settled(id), 'the deactivations');
    const since = env.mark();
    const results = await env.offboarding.undo(id, { by: 'bench' });
    await env.until(() => env.offboarding.settled(id), 'the undo');
    const calls = env.callsSince(since);
    const undone = results?.filter((result) => result.result === 'undone').length ?? 0;
    if (undone !== people) throw new Error(`expected ${people} undone, got ${undone}`);
    return {
      people,
      calls,
      minimum: { perPerson: 1 + lowerSeat / people, fixed: 0, why: `reactivate, and give back the seat held before where it was lower than MEMBER (${lowerSeat} of ${people})` },
      note: `${undone} undone, ${lowerSeat} seats given back`,
    };
  },
};

export const OFFBOARDING_SCENARIOS: readonly CallScenario[] = [offboardingScenario(false), offboardingScenario(true), undoScenario];
