import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { emptyCounts } from '../../../src/queue/row-outcome.js';
import type { ScheduleView } from '../../../src/reconcile/schedule-book.js';
import { controlDeps } from './control-test-deps.js';
import { csrfOf, getPage, postForm, signIn, textOf } from './dashboard-sign-in.js';


let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const lastRun = (overrides: Partial<NonNullable<ScheduleView['lastRun']>>): NonNullable<ScheduleView['lastRun']> => ({
  runId: 'r1',
  tick: '2026-11-23T06:00:00.000Z',
  finishedAt: '2026-11-23T06:00:04.000Z',
  applied: true,
  plan: { change: 3, 'no-op': 40 },
  policySha256: 'a'.repeat(64),
  report: '/data/reconcile/weekly-2026-11-23.csv',
  ...overrides,
});

const SCHEDULES: ScheduleView[] = [
  {
    name: 'weekly-apply',
    policyPath: '/etc/seatflow/licences.json',
    apply: true,
    cron: '0 6 * * 1',
    tz: 'Europe/Berlin',
    next: '2026-11-30T05:00:00.000Z',
    lastRun: lastRun({ batchId: 'b0123456789ab' }),
    lastBatch: { state: 'finished', counts: { ...emptyCounts(), succeeded: 2, failed: 1 }, total: 3 },
  },
  { name: 'held', policyPath: '/p/held.json', apply: true, cron: '0 7 * * *', tz: 'UTC', next: undefined, lastRun: lastRun({ heldBecause: ['12 removals are more than the limit of 5'] }), lastBatch: undefined },
  { name: 'broken', policyPath: '/p/<broken>.json', apply: false, cron: '*/30 * * * *', tz: undefined, next: '2026-11-23T16:30:00.000Z', lastRun: lastRun({ applied: false, error: 'policy file <missing>' }), lastBatch: undefined },
  { name: 'dry', policyPath: '/p/dry.json', apply: false, cron: '0 8 * * *', tz: 'UTC', next: '2026-11-24T08:00:00.000Z', lastRun: lastRun({ applied: false, plan: { change: 1 } }), lastBatch: undefined },
  { name: 'new', policyPath: '/p/new.json', apply: false, cron: '0 9 * * *', tz: 'UTC', next: '2026-11-24T09:00:00.000Z', lastRun: undefined, lastBatch: undefined },
];

/** A schedule book that answers from memory, counts its list calls and records the runs asked for. */
function fakeBook(schedules: ScheduleView[]) {
  const book = {
    calls: 0,
    runs: [] as string[],
    async list() {
      book.calls += 1;
      return schedules;
    },
    async runNow(name: string) {
      if (!schedules.some((view) => view.name === name)) return undefined;
      book.runs.push(name);
      return { jobId: `run-now-${name}-1`, workers: 0 };
    },
  };
  return book;
}

/** The table row of one schedule, as text without tags. */
function rowOf(body: string, name: string): string {
  const row = new RegExp(`<tr><th scope="row" data-label="Schedule">${name}</th>[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';
  return textOf(row);
}

describe('dashboard: schedules page', () => {
  it('shows each schedule: cron and zone, mode, policy, next run, last run and report', async () => {
    app = buildControlApp(controlDeps({ schedules: fakeBook(SCHEDULES) }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/schedules');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/schedules" aria-current="page">Schedules</a>');
    expect(page.body).toContain('<caption class="visually-hidden">Reconciliation schedules of this target, by name</caption>');
    const weekly = rowOf(page.body, 'weekly-apply');
    // Nobody can confirm a scheduled run: the page says what holds it.
    expect(weekly).toMatch(/0 6 \* \* 1 Europe\/Berlin applies a run above guardrails\.destructiveMaxCount \(\d+\) or guardrails\.destructiveMaxShare \([\d.]+%\) is held and changes nothing: .* licences\.json 2026-11-30 06:00 Europe\/Berlin/);
    expect(weekly).toMatch(/2026-11-23 07:00 Europe\/Berlin .* batch b0123456789ab finished 3 rows 2 succeeded 1 failed plan: 3 change, 40 no-op CSV · JSON Run now…/);
    // The report is a download of this server, not a path of its disk.
    expect(page.body).toContain('<a id="report-weekly-apply-csv" href="/schedules/weekly-apply/report.csv" download>CSV</a>');
    expect(page.body).not.toContain('/data/reconcile/');
    expect(page.body).toContain('<a href="/batches/b0123456789ab">b0123456789ab</a>');
    expect(rowOf(page.body, 'held')).toMatch(/none .* changed nothing: 12 removals are more than the limit of 5/);
    expect(rowOf(page.body, 'broken')).toMatch(/UTC dry run .* failed: policy file &lt;missing&gt;/);
    expect(rowOf(page.body, 'dry')).toMatch(/1 change planned, plan only \(dry run\): nothing was changed/);
    expect(rowOf(page.body, 'new')).toMatch(/never —/);
    expect(page.body).not.toContain('<broken>');
  });

  it('says which commands change schedules, and runs one now only through its confirmation page', async () => {
    const book = fakeBook(SCHEDULES);
    app = buildControlApp(controlDeps({ schedules: book }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/schedules');
    expect(page.body).toContain('seatflow schedule add NAME POLICY --cron');
    expect(page.body).toContain('seatflow schedule remove NAME');
    expect(page.body).not.toMatch(/<form method="post" action="\/schedules/);
    expect(page.body).toContain('<a class="button" id="run-weekly-apply" href="/schedules/weekly-apply/run" aria-label="Run now: weekly-apply…">Run now…</a>');

    const confirm = await getPage(app, jar, '/schedules/weekly-apply/run');
    expect(confirm.statusCode).toBe(200);
    expect(textOf(confirm.body)).toContain('submits the changes as a batch');
    const forged = await postForm(app, jar, '/schedules/weekly-apply/run', {});
    expect(forged.statusCode).toBe(403);
    expect(book.runs).toEqual([]);
    const posted = await postForm(app, jar, '/schedules/weekly-apply/run', { _csrf: csrfOf(confirm.body) });
    // Post, redirect, get: the schedules page, with the result first (a reload runs nothing again).
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toMatch(/^\/schedules\?done=[0-9a-f]{32}$/);
    expect(book.runs).toEqual(['weekly-apply']);
    const queued = await getPage(app, jar, String(posted.headers.location));
    expect(queued.body).toContain('<section id="result" class="result note" role="status" tabindex="-1" autofocus aria-label="Result">');
    expect(textOf(queued.body)).toMatch(/The run of weekly-apply is queued \(run-now-weekly-apply-1\), but no schedule worker is connected now/);
    expect((await getPage(app, jar, '/schedules/nope/run')).statusCode).toBe(404);
    expect(textOf((await getPage(app, jar, '/schedules/dry/run')).body)).toContain('it is a dry run: nothing is changed');
  });

  it('refreshes its table with htmx, and says so when there is no schedule', async () => {
    const book = fakeBook([]);
    app = buildControlApp(controlDeps({ schedules: book }));
    const jar = await signIn(app);
    const page = await getPage(app, jar, '/schedules');
    expect(page.body).toContain('No reconciliation schedules for this target.');
    expect(page.body).toContain('hx-get="/schedules/live"');
    const live = await getPage(app, jar, '/schedules/live', { 'hx-request': 'true' });
    expect(live.statusCode).toBe(200);
    expect(live.body.startsWith('<div id="schedules-live"')).toBe(true);
    expect(live.body).not.toContain('<html');
    expect(book.calls).toBe(2);
  });

  it('hides the entry and says "not available" on a server without a schedule book', async () => {
    app = buildControlApp(controlDeps());
    const jar = await signIn(app);
    const batches = await getPage(app, jar, '/batches');
    expect(batches.body).not.toContain('href="/schedules"');
    expect(batches.body).not.toContain('href="/holds"');
    const page = await getPage(app, jar, '/schedules');
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Schedules are not available on this server');
  });
});
