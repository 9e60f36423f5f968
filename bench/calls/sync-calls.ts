import path from 'node:path';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { runSync } from '../../src/sync/run-sync.js';
import { DAY, GUARDRAILS, OFFBOARDING } from './call-env.js';
import { candidates, type CallScenario, type ScenarioResult } from './call-scenario.js';

const HEADER = 'Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Effective Date,Generated At';
/** Engineering is MEMBER, everyone else CONTRIBUTOR; leavers go to their manager (a group admin), else the admin. */
const POLICY = {
  timeZone: 'UTC',
  planId: DEMO.planId,
  exportTime: 'column',
  seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' },
  leavers: { hold: '1d', transferTo: 'admin@acme.example' },
  safety: { maxMissingShare: 1 },
};
const MANAGER = 'dana.whitfield@acme.example';

interface Employee {
  id: string;
  email: string;
  department: string;
  start?: string;
  end?: string;
  effective?: string;
}

/**
 * HR sync as `seatflow sync --apply` runs it: a first export of the staff is accepted (not counted), then one night
 * adds `people` joiners (starting today), moves `people` members to another department (effective today: a downgrade)
 * or ends `people` employees (their last day yesterday: an offboarding to their manager, removed after the policy's
 * hold, the server's clock moved past it). Counted from the night's sync until its workflows have nothing due.
 */
function syncScenario(kind: 'joiners' | 'movers' | 'leavers'): CallScenario {
  return {
    name: `HR sync: ${kind}`,
    organization: (people) => Math.max(2000, people * 8),
    async run(env, people): Promise<ScenarioResult> {
      const policy = path.join(env.h.dir, 'lifecycle.json');
      env.h.writeManifest('lifecycle.json', [JSON.stringify(POLICY)]);
      // Members on a MEMBER seat in the policy's plan only: a move to Sales is then a downgrade.
      const staff = candidates(env.h.server, people, true).map((email, i): Employee => ({ id: `E${i}`, email, department: 'Engineering' }));
      let nights = 0;
      const night = (rows: readonly Employee[]) => {
        nights += 1;
        const generated = new Date(env.clock.now()).toISOString().slice(0, 19) + 'Z';
        const lines = rows.map((r) => [r.id, r.email, 'Active', r.start ?? '2020-01-06', r.end ?? '', r.department, 'Engineer', MANAGER, 'Berlin', r.effective ?? '', generated].join(','));
        return env.h.writeManifest(`hr-${nights}.csv`, [HEADER, ...lines]);
      };
      const sync = async (file: string) => {
        const run = await runSync({
          exportPath: file,
          policyPath: policy,
          api: env.h.api,
          offboarding: env.offboarding,
          config: { guardrails: GUARDRAILS, offboarding: OFFBOARDING },
          target: env.h.server.url,
          apply: true,
          acceptMissing: true,
          confirmGuardrails: () => Promise.resolve(true),
          reportDir: path.join(env.h.dir, 'sync'),
          now: () => env.clock.now(),
        });
        if (run.kind !== 'planned' || !run.disposition.applied) throw new Error(`the sync was not applied: ${JSON.stringify(run.kind === 'planned' ? run.disposition : run.kind)}`);
        return run.plan;
      };
      await sync(night(staff));
      await env.until(() => env.settled(), 'the first sync');
      env.h.server.context.clock.advance(60_000);

      const today = new Date(env.clock.now()).toISOString().slice(0, 10);
      const yesterday = new Date(env.clock.now() - DAY).toISOString().slice(0, 10);
      const since = env.mark();
      if (kind === 'joiners') {
        const joiners = Array.from({ length: people }, (_, i): Employee => ({ id: `J${i}`, email: `joiner.${i}@acme.example`, department: 'Engineering', start: today }));
        const plan = await sync(night([...staff, ...joiners]));
        if (plan.joiners.filter((joiner) => joiner.verdict === 'change').length !== people) throw new Error(`expected ${people} joiners, planned ${plan.joiners.length}`);
      } else if (kind === 'movers') {
        const plan = await sync(night(staff.map((employee) => ({ ...employee, department: 'Sales', effective: today }))));
        if (plan.movers.filter((mover) => mover.verdict === 'change').length !== people) throw new Error(`expected ${people} movers, planned ${plan.movers.length}`);
      } else {
        const plan = await sync(night(staff.map((employee) => ({ ...employee, end: yesterday }))));
        if (plan.leavers?.leavers.filter((leaver) => leaver.verdict !== 'refused').length !== people) throw new Error(`expected ${people} leavers, planned ${plan.leavers?.leavers.length ?? 0}`);
        await env.until(() => env.settled(), 'the deactivations');
        await env.advance(DAY + 60_000);
      }
      await env.until(() => env.settled(), `the ${kind}`);
      const calls = env.callsSince(since);
      const usersNow = env.h.server.context.state.users.size;
      const listing = 1 + Math.ceil(usersNow / 2000);
      const minimum =
        kind === 'joiners' ? { perPerson: 2, fixed: listing, why: 'add, then the seat the policy gives (the add gives a Provisional Member seat); who-am-I and one listing of the organization' }
        : kind === 'movers' ? { perPerson: 1, fixed: listing, why: 'the seat change; who-am-I and one listing of the organization' }
        : { perPerson: 3, fixed: listing + 2, why: 'deactivate, re-check after the hold, remove; who-am-I, one listing of the organization, the manager once at the plan and once at the removals' };
      return { people, calls, minimum };
    },
  };
}

export const SYNC_SCENARIOS: readonly CallScenario[] = [syncScenario('joiners'), syncScenario('movers'), syncScenario('leavers')];
