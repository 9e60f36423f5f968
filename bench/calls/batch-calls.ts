import path from 'node:path';
import { createJobRegistry } from '../../jobs/registry.js';
import { planRevert, revertBatchOptions } from '../../src/governance/revert/plan-revert.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { runReconciliation } from '../../src/reconcile/run-reconciliation.js';
import { GUARDRAILS, type CallEnv } from './call-env.js';
import { candidates, resolveFloor, type CallScenario, type ScenarioResult } from './call-scenario.js';

async function finished(env: CallEnv, batchId: string): Promise<void> {
  await env.until(async () => (await env.h.system.store.get(batchId))?.state === 'finished', `batch ${batchId}`);
}

/** A reconciliation policy whose source-of-truth file gives `people` members a CONTRIBUTOR seat, applied and run. */
const reconcileScenario: CallScenario = {
  name: 'reconciliation',
  organization: (people) => Math.max(2000, people * 4),
  async run(env, people): Promise<ScenarioResult> {
    const emails = candidates(env.h.server, people, true);
    env.h.writeManifest('seats.csv', ['email,seat', ...emails.map((email) => `${email},CONTRIBUTOR`)]);
    const policyPath = env.h.writeManifest('policy.json', [JSON.stringify({ version: 1, planId: DEMO.planId, rules: [{ name: 'source of truth', when: { inFile: 'seats.csv' }, then: { seatFromColumn: 'seat' } }], limits: { maxChanges: 1e6, maxShare: 1 } })]);
    const since = env.mark();
    const run = await runReconciliation({
      policyPath,
      api: env.h.api,
      guardrails: GUARDRAILS,
      clock: env.clock,
      runKey: `policy:${policyPath}`,
      runAt: new Date(env.clock.now()),
      apply: true,
      system: env.h.system,
      confirmGuardrails: () => Promise.resolve(true),
      reportDir: path.join(env.h.dir, 'reconcile'),
    });
    if (run.submitted === undefined || run.plan.plan.summary.change !== people) throw new Error(`expected ${people} changes, got ${JSON.stringify(run.disposition)}`);
    await finished(env, run.submitted.batch.id);
    const planUsers = [...env.h.server.context.state.users.values()].filter((user) => user.inOrg && user.seats.some((seat) => seat.planId === DEMO.planId)).length;
    return {
      people,
      calls: env.callsSince(since),
      minimum: { perPerson: 1, fixed: 1 + Math.ceil(planUsers / 100), why: 'the seat change; who-am-I and the plan\'s users with their last logins (100 a page, the service\'s cap with lastLogin)' },
    };
  },
};

/** A batch that downgraded `people` members (not counted), then its revert: planned, submitted and run. */
const revertScenario: CallScenario = {
  name: 'revert of a batch',
  organization: (people) => Math.max(2000, people * 4),
  async run(env, people): Promise<ScenarioResult> {
    const emails = candidates(env.h.server, people, true);
    const plan = await env.h.plan(env.h.writeManifest('downgrade.csv', ['email,action,seatType,planId', ...emails.map((email) => `${email},downgrade,CONTRIBUTOR,${DEMO.planId}`)]));
    const original = (await env.h.system.submit(plan)).batch.id;
    await finished(env, original);
    const since = env.mark();
    const revert = await planRevert({ batchId: original, store: env.h.system.store, registry: createJobRegistry(), api: env.h.api, guardrails: GUARDRAILS, reactivationWindowDays: 30, now: () => env.clock.now(), service: { readAtMs: env.clock.now() } });
    if (revert.plan.summary.change !== people) throw new Error(`expected ${people} rows to revert, got ${JSON.stringify(revert.plan.summary)}`);
    const submitted = await env.h.system.submit(revert.plan, { options: revertBatchOptions(original) });
    await finished(env, submitted.batch.id);
    const users = env.h.server.context.state.users.size;
    return {
      people,
      calls: env.callsSince(since),
      minimum: { perPerson: 1, fixed: 1 + resolveFloor(people, users) + Math.ceil(people / 100), why: 'the seat given back; who-am-I, resolving the users, their seats in the plan (100 a call)' },
    };
  },
};

export const BATCH_SCENARIOS: readonly CallScenario[] = [reconcileScenario, revertScenario];
