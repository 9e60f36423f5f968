import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../src/control/build-control-app.js';
import { governanceSchema } from '../../src/core/governance-config.js';
import { auditEntrySchema, type AuditEntry } from '../../src/governance/audit/audit-entry.js';
import { createOperatorDirectory } from '../../src/governance/operators/operator-directory.js';
import type { ScheduleView } from '../../src/reconcile/schedule-book.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { createGovernanceHarness, GUARDRAILS, membersOf, type GovernanceHarness } from '../helpers/governance-harness.js';
import { controlDeps, TOKEN } from '../unit/control/control-test-deps.js';
import { csrfOf, follow, getPage, postForm, signIn, textOf } from '../unit/control/dashboard-sign-in.js';

const ALICE = 'alice-token-0123456789abcdef0123456789';
const BOB = 'bob-token-0123456789abcdef0123456789abcd';
const CONFIG = {
  operators: [
    { name: 'alice', role: 'operator', token: ALICE },
    { name: 'bob', role: 'approver', token: BOB },
  ],
  approvals: { changesAbove: 2 },
};
const SCHEDULE: ScheduleView = { name: 'weekly-seats', policyPath: '/etc/seatflow/seats.json', apply: false, cron: '0 6 * * 1', tz: 'Europe/Berlin', next: '2026-11-30T05:00:00.000Z', lastRun: undefined, lastBatch: undefined } as ScheduleView;

let redis: TestRedis;
let g: GovernanceHarness;
let app: FastifyInstance;
let runs: string[];

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  g = await createGovernanceHarness(redis, CONFIG);
  runs = [];
  app = buildControlApp(
    controlDeps({
      target: { label: 'SIMULATION', id: g.h.server.url, configured: true, sim: true },
      guardrails: GUARDRAILS,
      api: g.h.api,
      batches: { system: g.h.system, api: g.h.api, redis: g.h.redisHandle.client },
      schedules: {
        list: async () => [SCHEDULE],
        runNow: async (name: string) => {
          runs.push(name);
          return { jobId: `run-now-${name}-1`, workers: 1 };
        },
      },
      governance: {
        operators: createOperatorDirectory(governanceSchema.parse(CONFIG), TOKEN),
        gate: g.governance.gate,
        approvals: g.governance.approvals,
        audit: g.governance.audit,
        deliveries: g.governance.deliveries,
        kinds: g.kinds,
      },
    }),
  );
});
afterEach(async () => {
  await app?.close();
  await g?.close();
});

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const manifestOf = (emails: string[]) => `${['email,action,seatType', ...emails.map((email) => `${email},downgrade,CONTRIBUTOR`)].join('\n')}\n`;
const submitAs = (token: string, emails: string[]) =>
  app.inject({ method: 'POST', url: '/v1/batches?reason=HR-7', headers: { ...as(token), 'content-type': 'text/csv' }, payload: manifestOf(emails) });

async function trail(): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for await (const { raw } of g.governance.audit.entries()) entries.push(auditEntrySchema.parse(JSON.parse(raw)));
  return entries;
}

describe('who did what, from the dashboard', { timeout: 60_000 }, () => {
  it('a cancel, a retry and a run now are in the audit trail with the signed-in operator, each post redirecting to its result', async () => {
    // Two rows: under the approvals threshold, queued at once (no worker runs, so they wait).
    const submitted = (await submitAs(ALICE, membersOf(g.h, 2))).json<{ batchId: string }>();
    const alice = await signIn(app, ALICE);

    const header = await getPage(app, alice, `/batches/${submitted.batchId}`);
    expect(header.body).toContain('Signed in as <strong>alice</strong> <span class="role">(operator)</span>');
    // The batch says who asked for it and why.
    expect(textOf(header.body)).toMatch(/Submitted by alice .* Ticket or reason HR-7/);

    const confirmCancel = await getPage(app, alice, `/batches/${submitted.batchId}/cancel`);
    const cancelled = await follow(app, alice, await postForm(app, alice, `/batches/${submitted.batchId}/cancel`, { _csrf: csrfOf(confirmCancel.body) }));
    expect(cancelled.body).toMatch(/<section id="result" class="result ok-note" role="status" tabindex="-1" autofocus/);
    expect(textOf(cancelled.body)).toContain('Cancelled by alice: 2 rows will not run.');
    expect((await g.h.system.store.get(submitted.batchId))?.message).toBe('cancelled by alice (dashboard)');

    const confirmRetry = await getPage(app, alice, `/batches/${submitted.batchId}/retry`);
    const retried = await follow(app, alice, await postForm(app, alice, `/batches/${submitted.batchId}/retry`, { _csrf: csrfOf(confirmRetry.body) }));
    expect(textOf(retried.body)).toContain('Retried: 2 rows queued again.');

    const confirmRun = await getPage(app, alice, '/schedules/weekly-seats/run');
    const ran = await follow(app, alice, await postForm(app, alice, '/schedules/weekly-seats/run', { _csrf: csrfOf(confirmRun.body) }));
    expect(textOf(ran.body)).toContain('The run of weekly-seats is queued (run-now-weekly-seats-1)');
    expect(runs).toEqual(['weekly-seats']);

    const entries = await trail();
    expect(entries.find((entry) => entry.event === 'batch.cancelled')).toMatchObject({ actor: 'alice', subject: submitted.batchId, data: { via: 'dashboard', cancelled: 2, running: 0 } });
    expect(entries.find((entry) => entry.event === 'batch.retried')).toMatchObject({ actor: 'alice', subject: submitted.batchId, data: { via: 'dashboard', requeued: 2 } });
    expect(entries.find((entry) => entry.event === 'schedule.run')).toMatchObject({ actor: 'alice', subject: 'weekly-seats', data: { via: 'dashboard', jobId: 'run-now-weekly-seats-1' } });

    // The audit page, filtered to alice's cancels, links the batch.
    const page = await getPage(app, alice, '/audit?actor=alice&event=batch.cancelled');
    expect(textOf(page.body)).toMatch(/batch\.cancelled alice/);
    expect(page.body).toContain(`<a href="/batches/${submitted.batchId}">${submitted.batchId}</a>`);
    const rows = /<tbody>([\s\S]*)<\/tbody>/.exec(page.body)?.[1] ?? '';
    expect(rows.match(/<tr>/g)).toHaveLength(1);
    expect(rows).not.toContain('schedule.run');
    const byId = textOf((await getPage(app, alice, `/audit?subject=${submitted.batchId}`)).body);
    // Everything about the batch, newest first.
    expect(byId).toMatch(/batch\.retried[\s\S]*batch\.cancelled[\s\S]*change\.requested/);
  });

  it('a cancel over the API names the token\'s operator and the reason', async () => {
    const submitted = (await submitAs(ALICE, membersOf(g.h, 2))).json<{ batchId: string }>();
    const cancel = await app.inject({ method: 'POST', url: `/v1/batches/${submitted.batchId}/cancel?reason=${encodeURIComponent('wrong list')}`, headers: as(ALICE) });
    expect(cancel.statusCode).toBe(200);
    expect((await g.h.system.store.get(submitted.batchId))?.message).toBe('cancelled by alice (control API)');
    expect((await trail()).find((entry) => entry.event === 'batch.cancelled')).toMatchObject({ actor: 'alice', reason: 'wrong list', data: { via: 'control API' } });
  });

  it('approving a plan gone stale answers 409 PLAN_STALE with the new plan\'s hash; the dashboard says so and nothing ran', async () => {
    const emails = membersOf(g.h, 3);
    const submitted = (await submitAs(ALICE, emails)).json<{ batchId: string; approval: { planHash: string } }>();
    // Live state changes after the plan was shown: someone downgrades one of the users by hand.
    const userId = [...g.h.server.context.state.users.values()].find((user) => user.email === emails[1])!.id;
    await g.h.api.users.downgrade(userId, g.h.server.context.state.users.get(userId)!.seats[0]!.planId, { seatType: 'CONTRIBUTOR' });

    const stale = await app.inject({ method: 'POST', url: `/v1/approvals/${submitted.batchId}/approve?planHash=${submitted.approval.planHash}`, headers: as(BOB) });
    expect(stale.statusCode).toBe(409);
    const body = stale.json<{ error: { code: string; planHash: string; difference: string[]; hint: string } }>();
    expect(body.error.code).toBe('PLAN_STALE');
    expect(body.error.planHash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.error.planHash).not.toBe(submitted.approval.planHash);
    expect(body.error.difference).toEqual([`row 2: was "downgrade ${emails[1]}: change", now "downgrade ${emails[1]}: no-op"`]);
    expect(body.error.hint).toContain(`planHash=${body.error.planHash}`);
    expect(await g.h.system.store.get(submitted.batchId)).toBeUndefined();

    // On the dashboard: approving the new plan works only with its hash; a plan that goes stale again is said, focused.
    const userId2 = [...g.h.server.context.state.users.values()].find((user) => user.email === emails[2])!.id;
    const bob = await signIn(app, BOB);
    const page = await getPage(app, bob, `/approvals/${submitted.batchId}`);
    await g.h.api.users.downgrade(userId2, g.h.server.context.state.users.get(userId2)!.seats[0]!.planId, { seatType: 'CONTRIBUTOR' });
    const again = await follow(app, bob, await postForm(app, bob, `/approvals/${submitted.batchId}/approve`, { _csrf: csrfOf(page.body), planHash: body.error.planHash, confirm: 'true' }));
    expect(again.body).toMatch(/<section id="result" class="result error" role="alert" tabindex="-1" autofocus/);
    expect(textOf(again.body)).toContain('Not approved: the plan went stale before it ran');
    expect(await g.h.system.store.get(submitted.batchId)).toBeUndefined();
  });
});
