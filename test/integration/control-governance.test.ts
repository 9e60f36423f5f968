import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../src/control/build-control-app.js';
import { governanceSchema } from '../../src/core/governance-config.js';
import { createOperatorDirectory } from '../../src/governance/operators/operator-directory.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { createGovernanceHarness, GUARDRAILS, membersOf, type GovernanceHarness } from '../helpers/governance-harness.js';
import { controlDeps, TOKEN } from '../unit/control/control-test-deps.js';
import { csrfOf, follow, getPage, postForm, signIn, textOf, type CookieJar } from '../unit/control/dashboard-sign-in.js';

const ALICE = 'alice-token-0123456789abcdef0123456789';
const BOB = 'bob-token-0123456789abcdef0123456789abcd';
const CAROL = 'carol-token-0123456789abcdef0123456789ab';
const VERA = 'vera-token-0123456789abcdef0123456789abc';
const CONFIG = {
  operators: [
    { name: 'alice', role: 'operator', token: ALICE },
    { name: 'bob', role: 'approver', token: BOB },
    { name: 'carol', role: 'approver', token: CAROL },
    { name: 'vera', role: 'viewer', token: VERA },
  ],
  approvals: { changesAbove: 2 },
};

let redis: TestRedis;
let g: GovernanceHarness;
let app: FastifyInstance;

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  g = await createGovernanceHarness(redis, CONFIG);
  app = buildControlApp(
    controlDeps({
      target: { label: 'SIMULATION', id: g.h.server.url, configured: true, sim: true },
      guardrails: GUARDRAILS,
      api: g.h.api,
      batches: { system: g.h.system, api: g.h.api, redis: g.h.redisHandle.client },
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

function manifestOf(emails: string[]): string {
  return `${['email,action,seatType', ...emails.map((email) => `${email},downgrade,CONTRIBUTOR`)].join('\n')}\n`;
}

async function submitAs(token: string, emails: string[], query = '?reason=HR-9') {
  return app.inject({ method: 'POST', url: `/v1/batches${query}`, headers: { ...as(token), 'content-type': 'text/csv' }, payload: manifestOf(emails) });
}

const signInAs = (token: string): Promise<CookieJar> => signIn(app, token, '/approvals');

describe('governance over the control API and the dashboard', { timeout: 60_000 }, () => {
  it('roles: a viewer reads but cannot submit; an operator submits, the change waits; only another approver approves it', async () => {
    const emails = membersOf(g.h, 4);
    expect((await submitAs(VERA, emails)).statusCode).toBe(403);
    const submitted = await submitAs(ALICE, emails);
    expect(submitted.statusCode).toBe(202);
    const body = submitted.json<{ batchId: string; awaitingApproval: boolean; approval: { state: string; planHash: string; requestedBy: { name: string }; reason: string } }>();
    expect(body).toMatchObject({ awaitingApproval: true, approval: { state: 'awaiting-approval', requestedBy: { name: 'alice' }, reason: 'HR-9' } });
    expect(submitted.headers.location).toBe(`/v1/approvals/${body.batchId}`);
    // The same manifest sent again finds the request: no second pre-flight, no second request.
    expect((await submitAs(ALICE, emails)).json()).toMatchObject({ awaitingApproval: true, created: false });

    const listed = await app.inject({ method: 'GET', url: '/v1/approvals?state=awaiting-approval', headers: as(VERA) });
    expect(listed.json<{ approvals: Array<{ id: string }> }>().approvals.map((a) => a.id)).toEqual([body.batchId]);
    const shown = (await app.inject({ method: 'GET', url: `/v1/approvals/${body.batchId}`, headers: as(VERA) })).json<{ plan: Array<{ key: string; text: string }> }>();
    expect(shown.plan.map((line) => line.key)).toEqual(['row 1', 'row 2', 'row 3', 'row 4']);

    const approve = (token: string, hash = body.approval.planHash) => app.inject({ method: 'POST', url: `/v1/approvals/${body.batchId}/approve?planHash=${hash}`, headers: as(token) });
    expect((await approve(ALICE)).statusCode).toBe(403);
    // The shared control token is not a person: with named operators it requests, never approves.
    expect((await approve(TOKEN)).statusCode).toBe(403);
    expect((await approve(BOB, 'f'.repeat(64))).json()).toMatchObject({ error: { code: 'CONFLICT', message: expect.stringMatching(/changed since you saw it/) } });
    const approved = await approve(BOB);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'queued', id: body.batchId, approval: { state: 'queued', approvedBy: 'bob' } });
    g.h.startWorkers();
    expect((await g.h.waitForState(body.batchId, ['finished'])).counts.succeeded).toBe(4);
  });

  it('an approver who asked cannot approve; rejecting needs a reason', async () => {
    const submitted = (await submitAs(BOB, membersOf(g.h, 3), '')).json<{ batchId: string }>();
    const own = await app.inject({ method: 'POST', url: `/v1/approvals/${submitted.batchId}/approve`, headers: as(BOB) });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: expect.stringMatching(/bob asked for .* and cannot approve it/) } });
    expect((await app.inject({ method: 'POST', url: `/v1/approvals/${submitted.batchId}/reject`, headers: as(CAROL) })).statusCode).toBe(400);
    const rejected = await app.inject({ method: 'POST', url: `/v1/approvals/${submitted.batchId}/reject?reason=${encodeURIComponent('wrong plan')}`, headers: as(CAROL) });
    expect(rejected.json()).toMatchObject({ state: 'rejected', rejectedBy: 'carol', rejectionReason: 'wrong plan' });
  });

  it('the dashboard lists what waits, shows the plan, refuses the requester and approves through its form', async () => {
    const submitted = (await submitAs(ALICE, membersOf(g.h, 3))).json<{ batchId: string; approval: { planHash: string } }>();
    const alice = await signInAs(ALICE);
    const list = await getPage(app, alice, '/approvals');
    expect(list.statusCode).toBe(200);
    expect(textOf(list.body)).toMatch(/Waiting for approval \(1\)/);
    expect(list.body).toContain(`href="/approvals/${submitted.batchId}"`);
    const own = await getPage(app, alice, `/approvals/${submitted.batchId}`);
    expect(textOf(own.body)).toContain('You asked for this change: another approver must decide');
    expect(own.body).not.toContain('action="/approvals/' + submitted.batchId + '/approve"');
    // Even a hand-made form post is refused: alice is no approver (and asked for it).
    expect((await postForm(app, alice, `/approvals/${submitted.batchId}/approve`, { _csrf: csrfOf(own.body), planHash: submitted.approval.planHash, confirm: 'true' })).statusCode).toBe(403);

    const carol = await signInAs(CAROL);
    const page = await getPage(app, carol, `/approvals/${submitted.batchId}`);
    expect(page.body).toContain(`name="planHash" value="${submitted.approval.planHash}"`);
    expect(textOf(page.body)).toMatch(/Plan \(3 rows\)/);
    // The decision comes after the plan: what is approved is read before the form.
    expect(page.body.indexOf('id="plan-title"')).toBeLessThan(page.body.indexOf('id="decide-title"'));
    const approved = await follow(app, carol, await postForm(app, carol, `/approvals/${submitted.batchId}/approve`, { _csrf: csrfOf(page.body), planHash: submitted.approval.planHash, confirm: 'true', reason: 'looks right' }));
    expect(approved.statusCode).toBe(200);
    expect(approved.body).toMatch(/<section id="result" class="result ok-note" role="status" tabindex="-1" autofocus/);
    expect(textOf(approved.body)).toContain(`Approved by carol: planned again against live state, the plan is the one approved; queued as ${submitted.batchId}.`);
    expect(await g.h.system.store.get(submitted.batchId)).toMatchObject({ id: submitted.batchId });
  });

  it('serves the audit trail for a date range as JSON Lines and CSV, verifies it, and shows it on the dashboard', async () => {
    const submitted = (await submitAs(ALICE, membersOf(g.h, 3))).json<{ batchId: string }>();
    await app.inject({ method: 'POST', url: `/v1/approvals/${submitted.batchId}/reject?reason=later`, headers: as(BOB) });
    const jsonl = await app.inject({ method: 'GET', url: `/v1/audit?from=${new Date(Date.now() - 3600_000).toISOString()}`, headers: as(VERA) });
    expect(jsonl.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(jsonl.body.trim().split('\n').map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(['change.requested', 'change.rejected']);
    expect((await app.inject({ method: 'GET', url: '/v1/audit?to=2000-01-01', headers: as(VERA) })).body).toBe('');
    const csv = await app.inject({ method: 'GET', url: '/v1/audit?format=csv', headers: as(VERA) });
    expect(csv.body.split('\n')[0]).toBe('seq,at,event,actor,subject,reason,data,prev,hash');
    expect(csv.body).toContain(',change.rejected,bob,');
    expect((await app.inject({ method: 'GET', url: '/v1/audit/verify', headers: as(VERA) })).json()).toMatchObject({ ok: true, entries: 2 });

    const vera = await signInAs(VERA);
    const page = await getPage(app, vera, '/audit?verify=1');
    expect(page.statusCode).toBe(200);
    const text = textOf(page.body);
    expect(text).toMatch(/Intact: 2 entries/);
    expect(text).toMatch(/change\.rejected bob/);
    expect(text).toContain('later');
    const exported = await getPage(app, vera, '/audit/export?from=&to=&format=jsonl');
    expect(exported.body.trim().split('\n')).toHaveLength(2);
  });
});
