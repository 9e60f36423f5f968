import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.js';
import { createBatchStore } from '../../src/queue/batch-store.js';
import { createQueueKeys } from '../../src/queue/queue-keys.js';
import { openRedis, type RedisHandle } from '../../src/queue/redis/open-redis.js';
import { createScheduleBook, type ScheduleBook } from '../../src/reconcile/schedule-book.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { ROOT } from '../helpers/run-seatflow.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { checkPage as checkPageOn } from './check-page.js';
import { focusAfterLoad, focusedId, launchChromium, startServe, waitFor, type ServeProcess } from './dashboard-browser.js';

const ARTIFACTS = path.join(ROOT, 'test', 'artifacts', 'dashboard');
const PAGES = path.join(ARTIFACTS, 'pages');

// Offboarding rows of the demo organization: changes, one already done, one refused by the pre-flight, one only the
// service refuses (alex.kim is managed by an identity provider), so that the batch has a failed row to retry. Active
// generated users are added so that the batch takes a few seconds at the pace of the request budget (the page must
// update while it runs) and goes over the guardrail of 25 destructive changes (the preview must ask for the confirmation).
const STORY_ROWS = [
  'jordan.lee@acme.example,remove,dana.whitfield@acme.example,true,true',
  'priya.shah@acme.example,remove,dana.whitfield@acme.example,false,',
  'marcus.chen@acme.example,deactivate,,,',
  'taylor.brooks@acme.example,deactivate,,,',
  'sam.taylor@gmail.com,deactivate,,,',
  'alex.kim@acme.example,deactivate,,,',
  'nobody.here@acme.example,deactivate,,,',
];
const STORY_GENERATED = 24;
const CANCEL_ROWS = 60;
const LEAVERS = 4;

interface DemoUser {
  email: string;
  status: string;
  admin?: boolean;
}

let redis: TestRedis;
let serve: ServeProcess;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let workDir: string;
let prefix: string;
/** Generated active users of the demo organization, shared out between the stories so that none touches another's. */
let spare: string[] = [];

async function demoUsers(): Promise<DemoUser[]> {
  const response = await fetch(`${serve.simUrl}/users?pageSize=500`, { headers: { authorization: 'Bearer sim-admin-token' } });
  return ((await response.json()) as { data: DemoUser[] }).data;
}
const take = (n: number): string[] => {
  const taken = spare.slice(0, n);
  spare = spare.slice(n);
  expect(taken).toHaveLength(n);
  return taken;
};

beforeAll(async () => {
  mkdirSync(PAGES, { recursive: true });
  workDir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-dashboard-'));
  redis = await startTestRedis();
  prefix = redis.prefix();
  // The fleet's request budget as a service shared with other tools would need: a bucket of 10 calls, then the
  // refill rate (150 a minute less 2%). Batches then take many seconds, long enough to watch and to cancel, also on a
  // busy machine whose browser looks only every few seconds.
  const config = path.join(workDir, 'config.json');
  writeFileSync(config, JSON.stringify({ rateLimit: { requests: 150, perSeconds: 60, headroom: 0.02, burst: 10 } }));
  [serve, browser] = await Promise.all([
    startServe({ REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: prefix, SEATFLOW_DATA_DIR: workDir, SEATFLOW_CONFIG: config }),
    launchChromium(),
  ]);
  page = await browser.context.newPage();
  page.setDefaultTimeout(30_000);
  spare = (await demoUsers()).filter((user) => /^[a-z]+\.[a-z]+\.\d+@acme\.example$/.test(user.email) && user.status === 'ACTIVE' && user.admin !== true).map((user) => user.email);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await redis?.stop();
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

/** Whole pages, and (`fullPage: false`) what the screen shows first. */
const shot = (name: string, fullPage = true) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage });
const api = async (pathName: string) => {
  const response = await fetch(`${serve.url}${pathName}`, { headers: { authorization: `Bearer ${serve.token}` } });
  return (await response.json()) as Record<string, unknown>;
};
const checkPage = (name: string) => checkPageOn(page, PAGES, name);
/** Waits for the page to show the batch running; if it never does, says what it shows and what the API says. */
const seeRunning = async (batchId: string) =>
  page
    .locator('#batch-live .state .badge[data-state=running]')
    .waitFor()
    .catch(async (error: unknown) => {
      const shown = await page.locator('#batch-live .state .badge').getAttribute('data-state', { timeout: 1000 }).catch(() => 'no badge');
      const batch = await api(`/v1/batches/${batchId}`);
      throw new Error(`the page never showed the batch running: it shows ${shown}; the API says ${JSON.stringify({ state: batch.state, counts: batch.counts })}`, { cause: error });
    });

// Generous limits for a loaded machine: every step waits for a condition, none sleeps.
describe('the dashboard in a real browser against seatflow serve --sim', { timeout: 180_000 }, () => {
  it('signs in with the control token, through a form, into an HttpOnly SameSite=Strict cookie', async () => {
    await page.goto(`${serve.url}/batches`);
    await page.waitForURL(/\/login\?next=%2Fbatches$/);
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await checkPage('sign-in');
    await page.getByLabel('Control token').fill('not-the-token-but-long-enough-to-send-0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not the control token' }).waitFor();
    await checkPage('sign-in-refused');

    await page.getByLabel('Control token').fill(serve.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/batches$/);
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'seatflow_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.value).not.toContain(serve.token);
    expect(page.url()).not.toContain(serve.token);
    expect(await page.content()).not.toContain(serve.token);
    await expect(page.getByText('SIMULATION').first().isVisible()).resolves.toBe(true);
    // The banner landmark holds the target line; the page asks for /favicon.ico and gets it.
    await expect(page.getByRole('banner').getByText('SIMULATION').isVisible()).resolves.toBe(true);
    expect((await page.request.get(`${serve.url}/favicon.ico`)).status()).toBe(200);
    await checkPage('batches-empty');
  });

  it('plans a dropped manifest, submits it on confirmation and follows it live: running, announced, focus kept, charts', async () => {
    const lines = ['email,action,transferTo,transferSheets,removeFromSharing', ...STORY_ROWS, ...take(STORY_GENERATED).map((email) => `${email},deactivate,,,`)];
    const manifest = { text: `${lines.join('\n')}\n`, rows: lines.length - 1 };
    await page.getByRole('link', { name: 'Plan a manifest' }).first().click();
    await page.waitForURL(/\/plan$/);
    await checkPage('plan-form');
    // Drop the file on the drop zone as a person would drag it from their desktop.
    const dropped = await page.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(manifest.text)}], 'offboarding.csv', { type: 'text/csv' })); return t; })()`,
    );
    await page.dispatchEvent('#dropzone', 'drop', { dataTransfer: dropped });
    await page.getByText('Selected: offboarding.csv').waitFor();
    await page.getByRole('button', { name: 'Preview the plan' }).click();
    await page.getByRole('heading', { name: 'Plan of offboarding.csv' }).waitFor();
    const verdicts = await page.locator('table.rows tbody tr').allInnerTexts();
    expect(verdicts).toHaveLength(manifest.rows);
    expect(verdicts.join('\n')).toMatch(/sam\.taylor@gmail\.com[\s\S]*refused/);
    expect(verdicts.join('\n')).toMatch(/taylor\.brooks@acme\.example[\s\S]*no-op/);
    await page.getByText('Confirmation needed').waitFor();
    await checkPage('plan-preview');

    // Without the confirmation box the browser refuses to send the form.
    await page.getByRole('button', { name: 'Submit the batch' }).click();
    expect(page.url()).toMatch(/\/plan\/[0-9a-f]{32}$/);
    await page.getByLabel(/I checked this plan: run its \d+ changes, over the guardrails/).check();
    await page.getByRole('button', { name: 'Submit the batch' }).click();
    await page.waitForURL(/\/batches\/b[0-9a-f]{12}\?done=[0-9a-f]{32}$/);
    const batchUrl = page.url();
    const batchId = /\/batches\/(b[0-9a-f]{12})\?/.exec(batchUrl)![1]!;
    expect(await focusAfterLoad(page, 'result')).toBe('result');
    // Named after the uploaded file.
    await page.getByRole('heading', { name: 'offboarding.csv' }).waitFor();
    // Running, not "queued", once its rows started.
    await seeRunning(batchId);

    // Half-way, as the live part shows it (docs/dashboard-batch.png is the screen-sized picture).
    await waitFor('the batch to be half done', async () => {
      const done = Number(await page.locator('#batch-live progress').getAttribute('value'));
      return done >= Math.ceil(manifest.rows / 2) ? done : undefined;
    }, 60_000);
    // The live region has told a screen reader how far it got.
    expect(await page.locator('#announcer').textContent()).toMatch(/^Batch running: \d+ of 31 rows done/);
    await page.getByText('Budget the fleet learned').waitFor();
    await checkPage('batch-running');

    // Live updates: the page itself, never reloaded, reaches the finished state, and says so in the live region.
    await page.locator('#batch-live .state .badge[data-state=finished]').waitFor({ timeout: 60_000 });
    await page.locator('#batch-live').getByText(`${manifest.rows} / ${manifest.rows} rows`).waitFor();
    await waitFor('the end to be announced', async () => ((await page.locator('#announcer').textContent())?.startsWith('Batch finished: 31 of 31 rows done (100%)') === true ? true : undefined));
    expect(page.url()).toBe(batchUrl);
    const batch = (await api(`/v1/batches/${batchId}`)) as { state: string; source: string; counts: Record<string, number> };
    expect(batch.state).toBe('finished');
    expect(batch.source).toBe('offboarding.csv');
    expect(batch.counts).toMatchObject({ unchanged: 1, skipped: 2, cancelled: 0 });
    expect(batch.counts.failed).toBeGreaterThanOrEqual(1);
    // The pace of the batch and the calls against the limit, drawn by the server as SVG.
    expect((await page.locator('#chart-rows polyline').getAttribute('points'))!.split(' ').length).toBeGreaterThanOrEqual(2);
    expect((await page.locator('#chart-calls polyline').getAttribute('points'))!.split(' ').length).toBeGreaterThanOrEqual(2);
    await expect(page.locator('#chart-calls .chart-limit text').getByText('at most 157 in 60 s').isVisible()).resolves.toBe(true);
    await page.reload();
    await page.locator('table.rows tbody tr').nth(manifest.rows - 1).waitFor();
    expect(await page.locator('table.rows tbody tr').count()).toBe(manifest.rows);
    await checkPage('batch-finished');

    await page.getByRole('link', { name: /^failed/ }).click();
    await page.waitForURL(/outcome=failed$/);
    const failed = await page.locator('table.rows tbody tr').allInnerTexts();
    expect(failed).toHaveLength(batch.counts.failed!);
    expect(failed.join('\n')).toMatch(/alex\.kim@acme\.example[\s\S]*InvalidRequest[\s\S]*403[\s\S]*9002/);
    await checkPage('batch-failed-rows');

    const csv = await page.request.get(`${serve.url}/batches/${batchId}/report.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-disposition']).toContain(`${batchId}-simulation.csv`);
    expect((await csv.text()).trim().split('\n')).toHaveLength(manifest.rows + 1);
    const jsonl = await page.request.get(`${serve.url}/batches/${batchId}/report.jsonl`);
    expect((await jsonl.text()).trim().split('\n')).toHaveLength(manifest.rows);
  });

  it('retries the failed row after a confirmation', async () => {
    const batchId = /\/batches\/(b[0-9a-f]{12})/.exec(page.url())![1]!;
    const before = (await api(`/v1/batches/${batchId}`)) as { counts: { failed: number } };
    expect(before.counts.failed).toBeGreaterThanOrEqual(1);
    const clickedAt = new Date().toISOString();
    await page.getByRole('link', { name: 'Retry failed rows…' }).click();
    await page.getByRole('heading', { name: 'Retry failed rows' }).waitFor();
    await checkPage('confirm-retry');
    await page.getByRole('button', { name: 'Yes, retry' }).click();
    // Post, redirect, get: the batch page with the result first, and keyboard focus on it.
    await page.waitForURL(new RegExp(`/batches/${batchId}\\?done=[0-9a-f]{32}$`));
    await page.getByRole('status').filter({ hasText: /Retried: \d+ rows? queued again/ }).waitFor();
    expect(await focusAfterLoad(page, 'result')).toBe('result');
    // The row runs again and gets a new outcome (the service refuses it again: it is still managed elsewhere).
    const outcome = await waitFor('the retried row to end', async () => {
      const text = await (await fetch(`${serve.url}/v1/batches/${batchId}/outcomes`, { headers: { authorization: `Bearer ${serve.token}` } })).text();
      const rows = text.trim().split('\n').map((line) => JSON.parse(line) as { email?: string; finishedAt: string; outcome: string });
      const row = rows.find((r) => r.email === 'alex.kim@acme.example');
      return row !== undefined && row.finishedAt > clickedAt ? row : undefined;
    }, 45_000);
    expect(outcome.outcome).toBe('failed');
    await page.locator('#batch-live .state .badge[data-state=finished]').waitFor({ timeout: 45_000 });
  });

  it('cancels a running batch from its page, which follows the running rows to the final count without a reload', async () => {
    const rows = take(CANCEL_ROWS);
    const submitted = await fetch(`${serve.url}/v1/batches?name=cancel-me.csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'text/csv' },
      body: `email,action\n${rows.map((email) => `${email},deactivate`).join('\n')}\n`,
    });
    expect(submitted.status).toBe(409); // over the guardrails: the API asks for confirm=true
    const confirmed = await fetch(`${serve.url}/v1/batches?name=cancel-me.csv&confirm=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'text/csv' },
      body: `email,action\n${rows.map((email) => `${email},deactivate`).join('\n')}\n`,
    });
    expect(confirmed.status).toBe(202);
    const { batchId } = (await confirmed.json()) as { batchId: string };
    const liveAnswers: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes(`/batches/${batchId}/live`)) liveAnswers.push(response.url());
    });
    await page.goto(`${serve.url}/batches/${batchId}`);
    await page.getByRole('heading', { name: 'cancel-me.csv' }).waitFor();
    await seeRunning(batchId);
    // Keyboard focus stays on the link that has it while the live part refreshes around it (every 2 s).
    await page.focus('#filter-failed');
    const seen = liveAnswers.length;
    await waitFor('two refreshes of the live part', async () => (liveAnswers.length >= seen + 2 ? true : undefined));
    expect(await focusedId(page)).toBe('filter-failed');
    await page.getByRole('link', { name: 'Cancel batch…' }).click();
    await page.getByRole('heading', { name: 'Cancel batch' }).waitFor();
    await page.getByRole('button', { name: 'Yes, cancel the batch' }).click();
    await page.waitForURL(new RegExp(`/batches/${batchId}\\?done=[0-9a-f]{32}$`));
    await page.getByRole('status').filter({ hasText: /Cancelled by control-token: \d+ rows? will not run/ }).waitFor();
    expect(await focusAfterLoad(page, 'result')).toBe('result');
    const landedAt = page.url();
    // Cancelled while rows were running: the page keeps following them, and ends at every row with an outcome.
    await page.locator('#batch-live .state .badge[data-state=cancelled]').waitFor({ timeout: 60_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nthe page shows: ${await page.locator('#batch-live').innerText()}`);
    });
    await page.locator('#batch-live').getByText(`${CANCEL_ROWS} / ${CANCEL_ROWS} rows`).waitFor();
    expect(page.url()).toBe(landedAt);
    await page.locator('#batch-live').getByText('cancelled by control-token (dashboard)').waitFor();
    const batch = (await api(`/v1/batches/${batchId}`)) as { state: string; counts: Record<string, number>; message: string };
    expect(batch).toMatchObject({ state: 'cancelled', message: 'cancelled by control-token (dashboard)' });
    // Rows still queued ended cancelled; rows already taken ran to their end (some demo users are managed elsewhere).
    expect(batch.counts.cancelled).toBeGreaterThan(0);
    expect(batch.counts.succeeded! + batch.counts.failed!).toBeGreaterThan(0);
    await checkPage('batch-cancelled');
    // The confirmation page, checked once the race with the running rows is over.
    await page.goto(`${serve.url}/batches/${batchId}/cancel`);
    await checkPage('confirm-cancel');
  });

  it('starts an offboarding from a dropped leavers file; its step batches open, wait, and no longer keep the list refreshing', async () => {
    // Some demo users are managed by an identity provider (the service refuses their deactivation, and the API does
    // not tell which): a few leavers, so that at least one is deactivated and held. The demo data is deterministic.
    const leavers = take(LEAVERS);
    await page.goto(`${serve.url}/batches`);
    await page.getByRole('link', { name: 'Offboard leavers' }).click();
    await page.waitForURL(/\/offboardings\/new$/);
    await checkPage('offboard-form');
    const dropped = await page.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(`email\n${leavers.join('\n')}\n`)}], 'leavers.csv', { type: 'text/csv' })); return t; })()`,
    );
    await page.dispatchEvent('#dropzone', 'drop', { dataTransfer: dropped });
    await page.getByText('Selected: leavers.csv').waitFor();
    await page.getByLabel('Hold between deactivation and removal').fill('7d');
    await page.getByRole('button', { name: 'Preview the offboarding' }).click();
    await page.getByRole('heading', { name: 'Offboarding plan of leavers.csv' }).waitFor();
    expect(await page.locator('table.leavers tbody tr').count()).toBe(LEAVERS);
    await checkPage('offboard-plan');
    await page.getByLabel(/I checked this plan: offboard its \d+ leavers/).check();
    await page.getByRole('button', { name: 'Start the offboarding' }).click();
    await page.waitForURL(/\/offboardings\/o[0-9a-f]{12}\?done=[0-9a-f]{32}$/);
    const offboardingId = /\/offboardings\/(o[0-9a-f]{12})\?/.exec(page.url())![1]!;

    // The server's worker deactivates the leavers at once (no leave date); the hold then keeps the removal back.
    let seenStatus = '';
    const held = await waitFor('the leavers to be deactivated and held', async () => {
      const status = (await api(`/v1/offboardings/${offboardingId}`)) as { leavers?: Array<{ email: string; phase: string }> };
      seenStatus = JSON.stringify(status.leavers ?? status);
      const all = status.leavers ?? [];
      if (all.length === 0 || all.some((l) => l.phase === 'scheduled' || l.phase === 'deactivating')) return undefined;
      return all.find((l) => l.phase === 'holding')?.email ?? 'none';
    }, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; last status: ${seenStatus}`);
    });
    expect(held, seenStatus).not.toBe('none');
    await page.locator('#offboarding-live').getByText('holding').first().waitFor();
    await checkPage('offboarding');

    // Its step batches open (they were 404), named after the file.
    await page.locator('#step-deactivate').click();
    await page.waitForURL(new RegExp(`/batches/${offboardingId}-deactivate$`));
    await page.getByRole('heading', { name: `leavers.csv (offboarding ${offboardingId}: deactivate step)` }).waitFor();
    await page.locator('#batch-live .state .badge[data-state=finished]').waitFor();
    await checkPage('step-batch');
    await page.goto(`${serve.url}/offboardings/${offboardingId}`);
    await page.locator('#step-remove').click();
    await page.waitForURL(new RegExp(`/batches/${offboardingId}-remove$`));
    await page.locator('#batch-live .state .badge[data-state=waiting]').waitFor();
    await page.getByText('Next step due').waitFor();
    await checkPage('step-batch-waiting');

    // The list: the step batches wait, and nothing else moves, so it stops asking for itself.
    await page.goto(`${serve.url}/batches`);
    await page.locator('table.batches tbody tr').filter({ hasText: `${offboardingId}-remove` }).locator('.badge[data-state=waiting]').waitFor();
    await waitFor('the list to stop refreshing', async () => {
      await page.reload();
      return (await page.locator('#batches-live').getAttribute('hx-get')) === null ? true : undefined;
    }, 45_000);
    await checkPage('batches');

    // What is to come, by date: the held leaver's removal at the end of the hold.
    await page.getByRole('link', { name: 'Joiners, movers, leavers' }).click();
    await page.waitForURL(/\/upcoming$/);
    await page.locator('table.upcoming tbody tr').filter({ hasText: held }).filter({ hasText: 'hold ends: removed' }).waitFor();
    await checkPage('upcoming');

    // Provisional Members, kept from the service's events: none is tracked without a subscription.
    await page.getByRole('link', { name: 'Provisional Members' }).click();
    await page.waitForURL(/\/provisional$/);
    await page.getByText('No Provisional Member is tracked.').waitFor();
    await checkPage('provisional');

    // Holds, and undo of the held leaver through the confirmation page: the user is active again on the service.
    await page.getByRole('link', { name: 'Holds' }).click();
    await page.waitForURL(/\/holds$/);
    const undo = page.getByRole('link', { name: `Undo the offboarding of ${held}…` });
    await undo.waitFor();
    await checkPage('holds');
    await undo.click();
    await page.getByRole('heading', { name: 'Undo offboarding' }).waitFor();
    await page.getByText(`Undo the offboarding of ${held}?`).waitFor();
    await checkPage('undo-confirm');
    await page.getByRole('button', { name: 'Yes, undo' }).click();
    // The offboarding page, the result first with keyboard focus on it (a reload undoes nothing again).
    await page.waitForURL(new RegExp(`/offboardings/${offboardingId}\\?done=[0-9a-f]{32}$`));
    await page.getByRole('status').filter({ hasText: `${held}: undone` }).waitFor();
    expect(await focusAfterLoad(page, 'result')).toBe('result');
    await checkPage('undo-result');
    await waitFor('the leaver to be reactivated on the service', async () => ((await demoUsers()).find((user) => user.email === held)?.status === 'ACTIVE' ? true : undefined), 45_000);
    await page.locator('#offboarding-live').getByText('undone by control-token (dashboard)').waitFor();
  });

  it('runs a reconciliation schedule now from its page, after a confirmation', async () => {
    const batches = (await api('/v1/batches?limit=1')) as { batches: Array<{ target: string }> };
    const target = batches.batches[0]!.target;
    let handle: RedisHandle | undefined;
    let book: ScheduleBook | undefined;
    try {
      // A schedule of this server's target, added as `seatflow schedule add` would (the dashboard does not add them).
      handle = await openRedis({ url: redis.url, dataDir: workDir, logger: createSilentLogger() });
      book = createScheduleBook({ redis: handle, prefix, target, store: createBatchStore(handle.client, createQueueKeys(prefix)), logger: createSilentLogger() });
      const policy = path.join(workDir, 'stale-seats.json');
      writeFileSync(policy, JSON.stringify({ planId: DEMO.planId, rules: [{ name: 'stale', when: { seat: 'MEMBER', lastLoginOlderThanDays: 90 }, then: { seat: 'CONTRIBUTOR' } }] }));
      await book.add({ name: 'weekly-seats', policyPath: policy, apply: false, cron: '0 6 * * 1', tz: 'Europe/Berlin' });

      await page.getByRole('link', { name: 'Schedules' }).click();
      await page.waitForURL(/\/schedules$/);
      await page.getByRole('cell', { name: 'never' }).waitFor();
      await page.getByRole('link', { name: 'Run now: weekly-seats…' }).click();
      await page.getByRole('heading', { name: 'Run weekly-seats now' }).waitFor();
      await checkPage('run-confirm');
      await page.getByRole('button', { name: 'Yes, run it now' }).click();
      await page.waitForURL(/\/schedules\?done=[0-9a-f]{32}$/);
      await page.getByRole('status').filter({ hasText: 'The run of weekly-seats is queued' }).waitFor();
      expect(await focusAfterLoad(page, 'result')).toBe('result');
      // `serve --workers 1` runs it; the schedules page shows it as the last run.
      await waitFor('the run to be recorded', async () => ((await book!.get('weekly-seats'))?.lastRun !== undefined ? true : undefined), 45_000);
      await page.goto(`${serve.url}/schedules`);
      await page.getByText(/changes? planned, plan only \(dry run\): nothing was changed/).waitFor();
      await checkPage('schedules');
      const metrics = await (await page.request.get(`${serve.url}/metrics`)).text();
      expect(metrics).toContain('seatflow_schedule_last_run_result{schedule="weekly-seats",result="ok"} 1');
      expect(metrics).toMatch(/seatflow_schedule_next_run_timestamp_seconds\{schedule="weekly-seats"\} \d+/);
    } finally {
      await book?.close();
      await handle?.close();
    }
  });

  it('plans a column migration from the migrations page: the forms and the plan are accessible, on the desktop and at 390 px', async () => {
    await page.getByRole('link', { name: 'Migrations' }).click();
    await page.waitForURL(/\/migrations$/);
    await checkPage('migrations');
    await page.getByLabel('Sheet ids, one a line').fill(readFileSync(path.join(ROOT, 'jobs/examples/column-migration-sheets.txt'), 'utf8'));
    await page.getByLabel('The standard (JSON, as jobs/examples/column-standard.json)').fill(readFileSync(path.join(ROOT, 'jobs/examples/column-standard.json'), 'utf8'));
    await page.getByRole('button', { name: 'Preview the column migration' }).click();
    await page.getByRole('button', { name: 'Queue the migration' }).waitFor();
    await page.getByRole('cell', { name: '"Notes" is a former title of "Comments"; sets title, width' }).waitFor();
    await checkPage('migration-plan');
  });

  it('refuses a form another site posts with 403 and the reason, shows the 404 page, serves the queue board behind the sign-in and /metrics', async () => {
    const batchId = ((await api('/v1/batches?limit=50')) as { batches: Array<{ id: string; source: string }> }).batches.find((b) => b.source === 'offboarding.csv')!.id;
    // Another site's page that posts a form to the dashboard as soon as it loads.
    const forger: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(
        `<!doctype html><title>x</title><form method="post" action="${serve.url}/batches/${batchId}/retry"><input name="_csrf" value="x"></form><script>document.forms[0].submit()</script>`,
      );
    });
    await new Promise<void>((resolve) => forger.listen(0, '127.0.0.1', resolve));
    try {
      const forgerUrl = `http://127.0.0.1:${(forger.address() as AddressInfo).port}`;
      const refused = page.waitForResponse((response) => response.url().endsWith(`/batches/${batchId}/retry`));
      await page.goto(forgerUrl);
      expect((await refused).status()).toBe(403);
      await page.getByRole('heading', { name: 'Refused' }).waitFor();
      await page.getByText(`requests from the origin ${forgerUrl} are refused`).waitFor();
      await checkPage('refused');
    } finally {
      // The browser keeps its connection to the other site open; it is of no more use.
      forger.closeAllConnections();
      await new Promise((resolve) => forger.close(resolve));
    }

    await page.goto(`${serve.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await checkPage('not-found');

    await page.goto(`${serve.url}/admin/queues`);
    await page.getByText('seatflow queues').first().waitFor();
    await page.getByText('Loading...').waitFor({ state: 'hidden' });
    await shot('07-queues');
    // Read-only: Bull Board's own actions are refused by the server, not just hidden. (Bull Board's pages are not
    // seatflow's: axe is not run on them.)
    const { queues } = (await (await page.request.get(`${serve.url}/admin/queues/api/queues`)).json()) as { queues: Array<{ name: string }> };
    expect(queues.length).toBe(1);
    const pause = await page.request.put(`${serve.url}/admin/queues/api/queues/${encodeURIComponent(queues[0]!.name)}/pause`);
    expect(pause.status()).toBe(405);

    const text = await (await page.request.get(`${serve.url}/metrics`)).text();
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}().]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    expect(value('seatflow_rows_finished_total{action="deactivate",outcome="failed"}')).toBeGreaterThanOrEqual(2);
    expect(value('seatflow_rows_finished_total{action="deactivate",outcome="succeeded"}')).toBeGreaterThanOrEqual(1);
    expect(value('seatflow_rows_finished_total{action="remove",outcome="succeeded"}')).toBe(2);
    expect(value('seatflow_api_calls_total{operation="users.deactivate",status_class="4xx"}')).toBeGreaterThanOrEqual(2);
    expect(value('seatflow_batch_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(value('seatflow_workers')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/seatflow_info\{version="\d+\.\d+\.\d+",target="SIMULATION[^"]*"\} 1/);
    expect(text).toMatch(/seatflow_offboarding_leavers\{phase="holding"\} \d+/);
    expect(text).toContain('seatflow_offboarding_steps_overdue 0');
    expect(text).not.toContain('state="completed"');
    // /readyz without the token: ready or not, and nothing about the account.
    const ready = (await (await fetch(`${serve.url}/readyz`)).json()) as Record<string, unknown>;
    expect(ready).toEqual({ status: 'ready', checks: { redis: { ok: true }, target: { ok: true } } });
  });

  it('signs out on the server: the pages send the person back to the sign-in, and a copy of the old cookie opens nothing', async () => {
    const session = (await browser.context.cookies()).find((c) => c.name === 'seatflow_session')!;
    await page.goto(`${serve.url}/batches`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${serve.url}/admin/queues`);
    await page.waitForURL(/\/login\?next=/);
    const replayed = await fetch(`${serve.url}/batches`, { headers: { cookie: `seatflow_session=${session.value}` }, redirect: 'manual' });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get('location')).toBe('/login?next=%2Fbatches');
  });
});
