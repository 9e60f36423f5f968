import type { PersonRow } from '../../../src/workflow/person-rows.js';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import type { ControlOffboardingDeps } from '../../../src/control/control-deps.js';
import type { HoldView } from '../../../src/workflow/offboarding-system.js';
import { offboardingStatus, type LeaverView } from '../../../src/workflow/offboarding-status.js';
import type { LeaverState } from '../../../src/workflow/leaver-state.js';
import type { UndoRequest } from '../../../src/workflow/undo-offboarding.js';
import type { WorkflowRecord } from '../../../src/workflow/workflow-store.js';
import { auth, controlDeps } from './control-test-deps.js';
import { csrfOf, getPage, postForm, signIn, textOf } from './dashboard-sign-in.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-23T12:00:00.000Z');

function workflow(id: string, overrides: Partial<WorkflowRecord> = {}): WorkflowRecord {
  return {
    id,
    state: 'open',
    source: 'leavers.csv',
    sha256: 'e'.repeat(64),
    createdAt: '2026-11-20T09:00:00.000Z',
    target: 'sim:test',
    sim: true,
    holdMs: 7 * 24 * HOUR,
    removeFromSharing: false,
    total: 3,
    deactivateBatch: 'b00000000000d',
    removeBatch: 'b00000000000e',
    reactivateBatch: 'b00000000000f',
    ...overrides,
  };
}

function leaver(row: number, email: string, phase: LeaverState['phase'], overrides: Partial<LeaverState> = {}): LeaverState {
  return { row, line: row + 1, email, userId: 1000 + row, leaveAt: NOW - 24 * HOUR, holdUntil: NOW + 6 * 24 * HOUR, steps: [], notes: [], version: 1, phase, ...overrides } as LeaverState;
}

const OURS = workflow('o0000000000a1', { source: 'q4-<leavers>.csv' });
const OTHER = workflow('o0000000000b2', { target: 'sim:http://127.0.0.1:1/2.0' });
const LEAVERS: Record<string, LeaverState[]> = {
  [OURS.id]: [
    leaver(1, 'ana.holding@acme.example', 'holding', {
      deactivateRequestedAt: NOW - 24 * HOUR,
      steps: [{ step: 'deactivate', at: '2026-11-22T12:00:01.000Z', outcome: 'succeeded' }],
      notes: ['owns 2 groups: <Sales>'],
    }),
    leaver(2, 'ben.later@acme.example', 'scheduled', { leaveAt: NOW + 48 * HOUR }),
    leaver(3, 'cy.removed@acme.example', 'removed', { reason: 'hold ended; re-check passed' }),
  ],
  [OTHER.id]: [leaver(1, 'old.sim@acme.example', 'holding')],
};

/** An offboarding system over the records above: its status and holds are computed by the real functions. */
function fakeOffboarding(): ControlOffboardingDeps & { undos: Array<{ id: string; request: UndoRequest }> } {
  const undos: Array<{ id: string; request: UndoRequest }> = [];
  const records = new Map([OURS, OTHER].map((record) => [record.id, record]));
  const system = {
    store: { get: async (id: string) => records.get(id) },
    status: async (id: string) => {
      const record = records.get(id);
      return record === undefined ? undefined : offboardingStatus(record, LEAVERS[id] ?? [], NOW, 1);
    },
    listHolds: async (): Promise<HoldView[]> => {
      const views = offboardingStatus(OURS, LEAVERS[OURS.id]!, NOW, 1).leavers.filter((view: LeaverView) => view.phase === 'holding' || view.phase === 'scheduled');
      return [{ workflowId: OTHER.id, ...offboardingStatus(OTHER, LEAVERS[OTHER.id]!, NOW, 1).leavers[0]! }, ...views.map((view) => ({ workflowId: OURS.id, ...view }))];
    },
    undo: async (id: string, request: UndoRequest) => {
      undos.push({ id, request });
      return (request.users ?? ['ana.holding@acme.example']).map((email) => ({ email, row: 1, result: 'undone' as const, reactivating: true, message: 'removal cancelled; reactivation queued' }));
    },
  };
  return { system: system as unknown as ControlOffboardingDeps['system'], config: {} as ControlOffboardingDeps['config'], undos };
}

describe('dashboard: holds page', () => {
  it('lists the leavers undo can still act on, by offboarding, with next step, undo-until and an Undo link each', async () => {
    app = buildControlApp(controlDeps({ offboarding: fakeOffboarding() }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/holds');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/holds" aria-current="page">Holds</a>');
    expect(page.body).toContain('hx-get="/holds/live" hx-trigger="every 5s"');
    expect(page.body).toContain('2 leavers in 1 offboarding.');
    expect(page.body).toContain(`<a id="open-${OURS.id}" href="/offboardings/${OURS.id}">q4-&lt;leavers&gt;.csv</a>`);
    expect(page.body).not.toContain('<leavers>');
    expect(page.body).toContain(`<caption class="visually-hidden">Leavers on hold in offboarding ${OURS.id} (q4-&lt;leavers&gt;.csv)</caption>`);
    const text = textOf(page.body);
    expect(text).toContain('ana.holding@acme.example row 1 · user 1001 holding remove 2026-11-29 12:00:00 UTC');
    expect(text).toContain('ben.later@acme.example row 2 · user 1002 scheduled deactivate 2026-11-25 12:00:00 UTC');
    expect(page.body).toContain(`href="/offboardings/${OURS.id}/undo?user=ana.holding%40acme.example" aria-label="Undo the offboarding of ana.holding@acme.example…">Undo…</a>`);
    expect(page.body).toContain(`href="/offboardings/${OURS.id}/undo">Undo all 2 on hold…</a>`);
    // A removed leaver is no hold; a hold of another target is counted, never offered for undo here.
    expect(page.body).not.toContain('cy.removed@acme.example');
    expect(page.body).not.toContain('old.sim@acme.example');
    expect(page.body).toContain('1 more leaver is on hold in offboardings of other targets');
  });

  it('says so when nothing is on hold, and keeps refreshing', async () => {
    const empty = fakeOffboarding();
    (empty.system as unknown as { listHolds: () => Promise<HoldView[]> }).listHolds = async () => [];
    app = buildControlApp(controlDeps({ offboarding: empty }));
    const jar = await signIn(app);
    const live = await getPage(app, jar, '/holds/live', { 'hx-request': 'true' });
    expect(live.body).toContain('Nothing is on hold: no leaver of an open offboarding can be undone now.');
    expect(live.body.startsWith('<div id="holds-live" hx-get="/holds/live"')).toBe(true);
  });

  it('shows one offboarding per leaver as `seatflow status` does', async () => {
    app = buildControlApp(controlDeps({ offboarding: fakeOffboarding() }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, `/offboardings/${OURS.id}`);
    expect(page.statusCode).toBe(200);
    const text = textOf(page.body);
    expect(text).toContain('1 holding, 1 scheduled, 1 removed');
    expect(text).toContain('ana.holding@acme.example row 1 · user 1001 holding deactivate succeeded 2026-11-22 12:00:01 UTC remove 2026-11-29 12:00:00 UTC');
    expect(text).toContain('owns 2 groups: &lt;Sales&gt;');
    expect(text).toContain('cy.removed@acme.example row 3 · user 1003 removed — — — — hold ended; re-check passed');
    // Named by the file's name; each leaver's row has its action in the row itself (the card's last line on a phone).
    expect(page.body).toMatch(/<h1>q4-&lt;leavers&gt;\.csv /);
    expect(page.body).toMatch(/<td data-label="Action" class="action-cell"><a class="button danger" id="undo-o0000000000a1-1"/);
    expect(page.body).toContain(`<a id="step-reactivate" href="/batches/${OURS.reactivateBatch}">reactivate</a>`);
    expect(page.body).toContain(`hx-get="/offboardings/${OURS.id}/live?announced=1-holding-1-scheduled-1-removed"`);
    expect(page.body.match(/>Undo…<\/a>/g)).toHaveLength(2);
    expect((await getPage(app, jar, '/offboardings/o000000000000')).statusCode).toBe(404);
    expect((await getPage(app, jar, '/offboardings/not-an-id')).statusCode).toBe(404);
  });

  it('shows what happened, not what was intended: an undo whose reactivation failed is red, with the service’s reason', async () => {
    const undone = leaver(4, 'dee.undone@acme.example', 'undone', { undo: { by: 'alice', at: '2026-11-23T10:00:00.000Z', from: 'holding' } });
    const failedReactivation: PersonRow = {
      batchId: OURS.reactivateBatch,
      action: 'reactivate',
      state: 'ended',
      outcome: { batchId: OURS.reactivateBatch, row: 4, line: 5, action: 'reactivate', outcome: 'failed', status: 404, message: 'User not found', attempts: 1, finishedAt: '2026-11-23T10:00:05.000Z' },
    };
    const offboarding = fakeOffboarding();
    (offboarding.system as unknown as { status: (id: string) => Promise<unknown> }).status = async () => offboardingStatus(OURS, [undone], NOW, 1, new Map([[4, [failedReactivation]]]));
    app = buildControlApp(controlDeps({ offboarding }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, `/offboardings/${OURS.id}`);
    expect(page.body).toContain('<span class="badge tone-bad" data-state="undo-failed">undo failed</span>');
    expect(textOf(page.body)).toContain('the reactivation failed: User not found');
    expect(textOf(page.body)).toContain('1 undo-failed');
  });

  it('shows the times of an offboarding planned in a zone in that zone, the UTC instant on hover, and a path as its file name', async () => {
    const zoned = workflow('o0000000000a1', { source: '/tmp/x1/leavers-berlin.csv', timeZone: 'Europe/Berlin' });
    const offboarding = fakeOffboarding();
    const status = offboarding.system.status;
    offboarding.system.status = (async (id: string) => {
      const found = await status(id);
      return found === undefined ? undefined : { ...found, workflow: zoned };
    }) as typeof status;
    app = buildControlApp(controlDeps({ offboarding }));
    const page = await getPage(app, await signIn(app), `/offboardings/${OURS.id}`);
    expect(page.body).toContain('<time datetime="2026-11-29T12:00:00.000Z" title="2026-11-29 12:00:00 UTC">2026-11-29 13:00 Europe/Berlin</time>');
    expect(textOf(page.body)).toContain('Times shown in Europe/Berlin');
    expect(page.body).toMatch(/<h1>leavers-berlin\.csv /);
    expect(page.body).not.toContain('/tmp/x1');
  });

  it('undoes only from the confirmation page, with its CSRF token, recorded as the signed-in operator; the post redirects to the result, focused', async () => {
    const offboarding = fakeOffboarding();
    app = buildControlApp(controlDeps({ offboarding }));
    const jar = await signIn(app);
    const confirm = await getPage(app, jar, `/offboardings/${OURS.id}/undo?user=ana.holding%40acme.example`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Undo the offboarding of <strong>ana.holding@acme.example</strong>?');
    expect(confirm.body).toContain('<input type="hidden" name="user" value="ana.holding@acme.example">');
    expect(offboarding.undos).toEqual([]);

    const forged = await postForm(app, jar, `/offboardings/${OURS.id}/undo`, { user: 'ana.holding@acme.example' });
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('The form expired or did not come from this dashboard');
    expect(offboarding.undos).toEqual([]);

    expect(confirm.body).toContain('The undo is recorded as done by you, <strong>control-token</strong>, from the dashboard.');
    const done = await postForm(app, jar, `/offboardings/${OURS.id}/undo`, { _csrf: csrfOf(confirm.body), user: 'ana.holding@acme.example' });
    // Post, redirect, get: a reload of the result undoes nothing again.
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toMatch(new RegExp(`^/offboardings/${OURS.id}\\?done=[0-9a-f]{32}$`));
    expect(offboarding.undos).toEqual([{ id: OURS.id, request: { by: 'control-token (dashboard)', users: ['ana.holding@acme.example'] } }]);
    const result = await getPage(app, jar, String(done.headers.location));
    expect(result.body).toMatch(/<section id="result" class="result ok-note" role="status" tabindex="-1" autofocus aria-label="Result">/);
    expect(textOf(result.body)).toContain('ana.holding@acme.example: undone — removal cancelled; reactivation queued');
    // The result is shown once to this session: another session's link to it shows the page without it.
    const other = await getPage(app, await signIn(app), String(done.headers.location));
    expect(other.body).not.toContain('id="result"');
  });

  it('undoes every leaver on hold when no user is named', async () => {
    const offboarding = fakeOffboarding();
    app = buildControlApp(controlDeps({ offboarding }));
    const jar = await signIn(app);
    const confirm = await getPage(app, jar, `/offboardings/${OURS.id}/undo`);
    expect(confirm.body).toContain('Undo the offboarding of these <strong>2</strong> leavers?');
    expect(confirm.body).toContain('Yes, undo all 2');
    expect(confirm.body).not.toContain('name="user"');
    await postForm(app, jar, `/offboardings/${OURS.id}/undo`, { _csrf: csrfOf(confirm.body) });
    expect(offboarding.undos).toEqual([{ id: OURS.id, request: { by: 'control-token (dashboard)' } }]);
  });

  it('offers no undo for a leaver past the hold, nor for an offboarding of another target (and refuses a post for it)', async () => {
    const offboarding = fakeOffboarding();
    app = buildControlApp(controlDeps({ offboarding }));
    const jar = await signIn(app);
    const removed = await getPage(app, jar, `/offboardings/${OURS.id}/undo?user=cy.removed%40acme.example`);
    expect(removed.body).toContain('cy.removed@acme.example cannot be undone now: the leaver is removed.');
    expect(removed.body).not.toContain('<form method="post" action="/offboardings/');

    const other = await getPage(app, jar, `/offboardings/${OTHER.id}/undo`);
    expect(other.body).toContain(`was submitted for ${OTHER.target}, not this server&#39;s target`);
    expect(other.body).not.toContain('<form method="post" action="/offboardings/');
    const posted = await postForm(app, jar, `/offboardings/${OTHER.id}/undo`, { _csrf: csrfOf(other.body) });
    expect(posted.statusCode).toBe(409);
    // The control API goes through the same check.
    const api = await app.inject({ method: 'POST', url: `/v1/offboardings/${OTHER.id}/undo`, headers: { ...auth, 'content-type': 'application/json' }, payload: '{"by":"someone"}' });
    expect(api.statusCode).toBe(409);
    expect(offboarding.undos).toEqual([]);
  });

  it('hides the entry and says "not available" on a server without the offboarding workflow', async () => {
    app = buildControlApp(controlDeps());
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/holds');
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Holds are not available on this server');
    expect(page.body).not.toContain('href="/holds"');
  });
});
