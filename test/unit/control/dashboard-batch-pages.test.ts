import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { batchActivity } from '../../../src/control/dashboard/batch-activity.js';
import { callsChart, rowsOverTime } from '../../../src/control/dashboard/batch-charts.js';
import { createBudgetSampler } from '../../../src/control/dashboard/budget-sampler.js';
import { lineChart } from '../../../src/control/dashboard/svg-chart.js';
import type { ControlBatchDeps, ControlOffboardingDeps } from '../../../src/control/control-deps.js';
import type { BatchRecord } from '../../../src/queue/batch-store.js';
import { emptyCounts } from '../../../src/queue/row-outcome.js';
import type { LeaverState } from '../../../src/workflow/leaver-state.js';
import { offboardingStatus } from '../../../src/workflow/offboarding-status.js';
import type { WorkflowRecord } from '../../../src/workflow/workflow-store.js';
import { auth, batchRecord, controlDeps, createFakeBatches } from './control-test-deps.js';
import { getPage, signIn, textOf } from './dashboard-sign-in.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const HOUR = 3_600_000;
const OFFBOARDING = 'o0123456789ab';

function workflow(): WorkflowRecord {
  return {
    id: OFFBOARDING,
    state: 'open',
    source: 'leavers.csv',
    sha256: 'e'.repeat(64),
    createdAt: new Date(Date.now() - 2 * HOUR).toISOString(),
    target: 'sim:test',
    sim: true,
    holdMs: 7 * 24 * HOUR,
    removeFromSharing: false,
    total: 2,
    deactivateBatch: `${OFFBOARDING}-deactivate`,
    removeBatch: `${OFFBOARDING}-remove`,
    reactivateBatch: `${OFFBOARDING}-reactivate`,
    restoreBatch: `${OFFBOARDING}-restore`,
  };
}

function leaver(row: number, phase: LeaverState['phase'], overrides: Partial<LeaverState> = {}): LeaverState {
  return { row, line: row + 1, email: `leaver.${row}@acme.example`, userId: 100 + row, leaveAt: Date.now() - HOUR, steps: [], notes: [], version: 1, phase, ...overrides };
}

/** An offboarding of two leavers both holding, the removal due in a week: its step batches wait. */
function holdingOffboarding(phases: LeaverState['phase'][] = ['holding', 'holding']): ControlOffboardingDeps {
  const record = workflow();
  const leavers = phases.map((phase, index) => leaver(index + 1, phase, { holdUntil: Date.now() + 7 * 24 * HOUR }));
  const system = {
    store: { get: async (id: string) => (id === OFFBOARDING ? record : undefined), leavers: async () => leavers },
    status: async () => offboardingStatus(record, leavers, Date.now(), 1),
  };
  return { system: system as unknown as ControlOffboardingDeps['system'], config: {} as ControlOffboardingDeps['config'] };
}

function stepBatch(step: 'deactivate' | 'remove' | 'reactivate' | 'restore', overrides: Partial<BatchRecord> = {}): BatchRecord {
  return batchRecord({ id: `${OFFBOARDING}-${step}`, source: `leavers.csv (offboarding ${OFFBOARDING}: ${step} step)`, total: 2, queued: 2, counts: emptyCounts(), ...overrides });
}

/** Fake batches whose rows-started count the test sets. */
function batchesWith(records: BatchRecord[], started = 0): ControlBatchDeps {
  const batches = createFakeBatches(records);
  const store = { ...(batches.system.store as object), rowsStarted: async () => started };
  return { ...batches, system: { ...batches.system, store } as unknown as ControlBatchDeps['system'] };
}

const liveOf = (body: string) => /<div id="batch-live"[^>]*>/.exec(body)?.[0] ?? '';

describe('batchActivity', () => {
  const counts = (done: number) => ({ ...emptyCounts(), succeeded: done });
  it('says running once a row started, queued before, and cancelling while running rows of a cancelled batch finish', () => {
    expect(batchActivity(batchRecord({ state: 'queued', counts: counts(0) }), { rowsStarted: 0 })).toEqual({ label: 'queued', moving: true });
    expect(batchActivity(batchRecord({ state: 'queued', counts: counts(1) }), { rowsStarted: 2 })).toEqual({ label: 'running', moving: true });
    expect(batchActivity(batchRecord({ state: 'cancelled', total: 4, counts: counts(3) }), { rowsStarted: 4 })).toEqual({ label: 'cancelling', moving: true });
    expect(batchActivity(batchRecord({ state: 'cancelled', total: 4, counts: counts(4) }), { rowsStarted: 4 })).toEqual({ label: 'cancelled', moving: false });
    expect(batchActivity(batchRecord({ state: 'finished', total: 4, counts: counts(4) }), { rowsStarted: 4 })).toEqual({ label: 'finished', moving: false });
  });

  it('says a step batch waits between its offboarding steps, and runs while a leaver is in its step', () => {
    const status = (phases: LeaverState['phase'][]) => offboardingStatus(workflow(), phases.map((phase, i) => leaver(i + 1, phase, { holdUntil: Date.now() + HOUR })), Date.now(), 1);
    const waiting = batchActivity(stepBatch('remove'), { rowsStarted: 0, step: { step: 'remove', status: status(['holding', 'holding']) } });
    expect(waiting).toMatchObject({ label: 'waiting', moving: false, nextDueAt: expect.any(String) });
    expect(batchActivity(stepBatch('remove'), { rowsStarted: 0, step: { step: 'remove', status: status(['removing', 'holding']) } })).toMatchObject({ label: 'running', moving: true });
    expect(batchActivity(stepBatch('deactivate'), { rowsStarted: 0, step: { step: 'deactivate', status: status(['deactivating', 'scheduled']) } })).toMatchObject({ label: 'running' });
    // An undone leaver's reactivation runs until its outcome is in the reactivate batch.
    expect(batchActivity(stepBatch('reactivate'), { rowsStarted: 0, step: { step: 'reactivate', status: status(['undone', 'holding']) } })).toMatchObject({ label: 'running' });
    expect(batchActivity(stepBatch('reactivate', { counts: { ...emptyCounts(), succeeded: 1 } }), { rowsStarted: 0, step: { step: 'reactivate', status: status(['undone', 'holding']) } })).toMatchObject({ label: 'waiting' });
    // The seat given back after a reactivation runs until its outcome is in the restore batch, then waits.
    expect(batchActivity(stepBatch('restore'), { rowsStarted: 0, step: { step: 'restore', status: status(['undone', 'holding']) } })).toMatchObject({ label: 'running' });
    expect(batchActivity(stepBatch('restore', { counts: { ...emptyCounts(), succeeded: 1 } }), { rowsStarted: 0, step: { step: 'restore', status: status(['undone', 'holding']) } })).toMatchObject({ label: 'waiting' });
  });
});

describe('dashboard: batch pages', () => {
  it('opens the step batches of an offboarding, on pages and on GET /v1/batches/:id, waiting for their next step', async () => {
    app = buildControlApp(controlDeps({ batches: batchesWith([stepBatch('deactivate', { state: 'finished', counts: { ...emptyCounts(), succeeded: 2 } }), stepBatch('remove')]), offboarding: holdingOffboarding() }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, `/batches/${OFFBOARDING}-remove`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`the remove step of offboarding <a href="/offboardings/${OFFBOARDING}">${OFFBOARDING}</a>`);
    expect(page.body).toContain('data-state="waiting">waiting</span>');
    expect(page.body).toContain('Next step due');
    // Between steps the page looks again every 30 s (a step may start), and offers no cancel (undo is the way).
    expect(liveOf(page.body)).toContain('hx-trigger="every 30s"');
    expect(page.body).not.toContain('Cancel batch…');
    const api = await app.inject({ method: 'GET', url: `/v1/batches/${OFFBOARDING}-deactivate`, headers: auth });
    expect(api.statusCode).toBe(200);
    expect(api.json()).toMatchObject({ id: `${OFFBOARDING}-deactivate`, state: 'finished' });
    expect((await app.inject({ method: 'GET', url: `/v1/batches/${OFFBOARDING}-delete`, headers: auth })).statusCode).toBe(404);
    // The restore step batch (the seat given back after an undo) is a step batch too.
    await app.close();
    app = buildControlApp(controlDeps({ batches: batchesWith([stepBatch('restore', { state: 'finished', counts: { ...emptyCounts(), succeeded: 1 } })]), offboarding: holdingOffboarding() }));
    const restore = await app.inject({ method: 'GET', url: `/v1/batches/${OFFBOARDING}-restore`, headers: auth });
    expect(restore.statusCode).toBe(200);
    expect(restore.json()).toMatchObject({ id: `${OFFBOARDING}-restore` });
  });

  it('stops the list refreshing when only step batches wait, and keeps it refreshing while a batch moves', async () => {
    const offboarding = holdingOffboarding();
    app = buildControlApp(controlDeps({ batches: batchesWith([stepBatch('remove'), stepBatch('reactivate'), batchRecord({ state: 'finished', counts: { ...emptyCounts(), succeeded: 4 } })]), offboarding }));
    let jar = await signIn(app);
    let list = await getPage(app, jar, '/batches');
    expect(list.body).toMatch(/<div id="batches-live">/);
    expect(list.body.match(/data-state="waiting">waiting</g)).toHaveLength(2);
    await app.close();

    app = buildControlApp(controlDeps({ batches: batchesWith([stepBatch('remove'), batchRecord({ state: 'queued' })], 1), offboarding }));
    jar = await signIn(app);
    list = await getPage(app, jar, '/batches');
    expect(list.body).toContain('<div id="batches-live" hx-get="/batches/live" hx-trigger="every 2s" hx-swap="outerHTML">');
    expect(list.body).toContain('data-state="running">running</span>');
  });

  it('keeps a cancelled batch live until its running rows finished, and says who cancelled it', async () => {
    const cancelling = batchRecord({ state: 'cancelled', total: 4, counts: { ...emptyCounts(), succeeded: 1, cancelled: 2 }, message: 'cancelled by the dashboard' });
    app = buildControlApp(controlDeps({ batches: batchesWith([cancelling], 3) }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/batches/b0123456789ab');
    expect(page.body).toContain('data-state="cancelling">cancelling</span>');
    expect(liveOf(page.body)).toContain('hx-trigger="every 2s"');
    expect(page.body).toContain('cancelled by the dashboard');
    await app.close();

    app = buildControlApp(controlDeps({ batches: batchesWith([{ ...cancelling, counts: { ...cancelling.counts, succeeded: 2 } }], 3) }));
    const settled = await getPage(app, await signIn(app), '/batches/b0123456789ab');
    expect(settled.body).toContain('data-state="cancelled">cancelled</span>');
    expect(liveOf(settled.body)).toBe('<div id="batch-live">');
  });

  it('announces progress in the live region only when it is news, and gives every link of its live part an id', async () => {
    app = buildControlApp(controlDeps({ batches: batchesWith([batchRecord({ state: 'queued', total: 10, counts: { ...emptyCounts(), succeeded: 4 } })], 5) }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/batches/b0123456789ab');
    // The page itself: a live region, empty; the live part asks again saying what the page already showed.
    expect(page.body).toContain('<div id="announcer" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>');
    expect(liveOf(page.body)).toContain('hx-get="/batches/b0123456789ab/live?announced=running%3A4"');
    expect(page.body).not.toContain('hx-swap-oob');
    const same = await getPage(app, jar, '/batches/b0123456789ab/live?announced=running%3A4', { 'hx-request': 'true' });
    expect(same.body).not.toContain('hx-swap-oob');
    const news = await getPage(app, jar, '/batches/b0123456789ab/live?announced=queued%3A0', { 'hx-request': 'true' });
    expect(news.body).toContain('<div id="announcer" hx-swap-oob="innerHTML">Batch running: 4 of 10 rows done (40%): 4 succeeded.</div>');
    // htmx gives focus back after a swap to the element with the same id: every link and button has one.
    const anonymous = [...same.body.matchAll(/<(a|button)\b[^>]*>/g)].map((match) => match[0]).filter((tag) => !/\bid="/.test(tag));
    expect(anonymous).toEqual([]);
  });

  it('puts the target line in the page banner, who is signed in beside Sign out, and tables that become cards on a phone', async () => {
    app = buildControlApp(controlDeps({ target: { label: 'https://api.example/2.0', id: 'https://api.example/2.0', configured: true, sim: false }, batches: batchesWith([batchRecord()]) }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/batches');
    expect(page.body).toMatch(/<header class="top">[\s\S]*<p class="target">Target: https:\/\/api\.example\/2\.0<\/p>\s*<\/header>\s*<main id="main">/);
    expect(page.body).toContain('<div class="table-box"><table class="cards batches">');
    // Every cell says which column it is in, so that a phone shows it as a labelled line of a card.
    expect(page.body).toMatch(/<th scope="row" data-label="Batch"><a id="open-b0123456789ab"/);
    expect(page.body).toContain('<td data-label="State">');
    expect(page.body).toContain('Signed in as <strong>control-token</strong> <span class="role">(admin)</span>');
  });
});

describe('dashboard: the request budget on the batch page', () => {
  it('shows the budget the fleet learned from 429s next to the configured one, and what it can send now', async () => {
    const budget = {
      counters: async () => ({ calls: 120, rateLimited: 3 }),
      pausedFor: async () => 0,
      // A 429 lowered the refill to 3 calls a second and the bucket to 40; 12 calls are left in it now.
      state: async () => ({ level: 28, capacity: 40, ratePerSecond: 3, pausedForMs: 0 }),
    };
    app = buildControlApp(controlDeps({ batches: batchesWith([batchRecord()], 1), budget: { budget, rate: { requests: 300, perSeconds: 60, headroom: 0.02, burst: 'auto' } } }));
    const page = await getPage(app, await signIn(app), '/batches/b0123456789ab');
    const text = textOf(page.body);
    expect(text).toContain('Budget the fleet learned 176 / min, bucket 40 (lowered by 429s from 294 / min, bucket 300)');
    expect(text).toContain('Available now 12 calls');
    expect(page.body).toContain('<figure class="chart" id="chart-calls">');
  });
});

describe('charts', () => {
  it('counts the calls of the 60 s before each point, never a short burst scaled up to a minute, against what the budget allows in 60 s', async () => {
    let now = 1_000_000;
    let calls = 0;
    const budget = { counters: async () => ({ calls, rateLimited: 0 }), state: async () => ({ level: 0, capacity: 10, ratePerSecond: 5, pausedForMs: 0 }) };
    const sampler = createBudgetSampler(budget, { requests: 300, perSeconds: 60, headroom: 0.02, burst: 10 }, { now: () => now, everyMs: 3_600_000 });
    try {
      await sampler.view();
      // A burst of the bucket's 10 calls in 2 s (300 a minute if scaled up), then 60 calls over the next 58 s.
      now += 2000;
      calls = 10;
      await sampler.view();
      now += 58_000;
      calls = 70;
      await sampler.view();
      now += 30_000;
      calls = 100;
      const view = await sampler.view();
      // Each point counts from the oldest sample within its 60 s: a shorter span says so, and is never scaled up.
      expect(view.series.map((point) => point.calls)).toEqual([10, 70, 30]);
      expect(view.series.map((point) => point.spanMs)).toEqual([2000, 60_000, 30_000]);
      const chart = textOf(callsChart(view).text);
      // The ceiling is the learned rate less the headroom, plus the bucket: 294 + 10.
      expect(chart).toContain('at most 304 in 60 s');
      expect(chart).toMatch(/peak 70, now 30 in the last 30 s; the budget allows at most 304 in 60 s/);
      expect(Math.max(...view.series.map((point) => point.calls))).toBeLessThanOrEqual(304);
    } finally {
      sampler.close();
    }
  });

  it('adds up the rows finished per second into a rising line from the submission', () => {
    const created = Date.parse('2026-11-23T12:00:00.000Z');
    const points = rowsOverTime({ createdAt: new Date(created).toISOString() }, [
      { at: created + 2000, rows: 3 },
      { at: created + 3000, rows: 2 },
      { at: created + 9000, rows: 5 },
    ]);
    expect(points[0]).toEqual({ at: created, value: 0 });
    expect(points.at(-1)).toEqual({ at: created + 10_000, value: 10 });
    expect(points.map((p) => p.value)).toEqual([...points.map((p) => p.value)].sort((a, b) => a - b));
  });

  it('draws inline SVG with a title and a summary, coloured by classes only (the CSP allows no inline style)', () => {
    const svg = lineChart({ id: 'c', title: 'Calls', unit: 'calls / min', summary: 'peak 120', lines: [{ className: 'line-calls', label: 'calls', points: [{ at: 0, value: 10 }, { at: 60_000, value: 120 }] }], limits: [{ value: 294, className: 'limit-learned', label: 'limit 294/min' }] }).text;
    expect(svg).toContain('role="img" aria-labelledby="c-title" aria-describedby="c-summary"');
    expect(svg).toContain('<title id="c-title">Calls</title>');
    expect(svg).toContain('<figcaption id="c-summary">peak 120</figcaption>');
    expect(svg).toMatch(/<polyline class="chart-line line-calls" fill="none" points="[\d.]+,[\d.]+ [\d.]+,[\d.]+"><\/polyline>/);
    expect(svg).toContain('limit 294/min');
    expect(svg).not.toMatch(/style=|<script|https?:\/\//);
  });
});
