import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-seatflow.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { launchChromium, startServe, waitFor, type ServeProcess } from './dashboard-browser.js';

const ARTIFACTS = path.join(ROOT, 'test', 'artifacts', 'dashboard');

// Offboarding rows of the demo organization: changes, one already done, one refused by the pre-flight, one only the
// service refuses (alex.kim is managed by an identity provider), so that the batch has a failed row to retry. Active
// generated users are added so that the batch takes a few seconds at the service's pace (the page must update while
// it runs) and goes over the guardrail of 25 destructive changes (the preview must ask for the confirmation).
const STORY_ROWS = [
  'jordan.lee@acme.example,remove,dana.whitfield@acme.example,true,true',
  'priya.shah@acme.example,remove,dana.whitfield@acme.example,false,',
  'marcus.chen@acme.example,deactivate,,,',
  'taylor.brooks@acme.example,deactivate,,,',
  'sam.taylor@gmail.com,deactivate,,,',
  'alex.kim@acme.example,deactivate,,,',
  'nobody.here@acme.example,deactivate,,,',
];
const GENERATED_ROWS = 24;

async function manifestText(): Promise<{ text: string; rows: number }> {
  const response = await fetch(`${serve.simUrl}/users?pageSize=500`, { headers: { authorization: 'Bearer sim-admin-token' } });
  const users = ((await response.json()) as { data: Array<{ email: string; status: string; admin?: boolean }> }).data;
  const generated = users.filter((user) => /^[a-z]+\.[a-z]+\.\d+@acme\.example$/.test(user.email) && user.status === 'ACTIVE' && user.admin !== true).slice(0, GENERATED_ROWS);
  expect(generated).toHaveLength(GENERATED_ROWS);
  const lines = ['email,action,transferTo,transferSheets,removeFromSharing', ...STORY_ROWS, ...generated.map((user) => `${user.email},deactivate,,,`)];
  return { text: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}

let redis: TestRedis;
let serve: ServeProcess;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let workDir: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  workDir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-dashboard-'));
  redis = await startTestRedis();
  [serve, browser] = await Promise.all([
    startServe({ REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: redis.prefix(), SEATFLOW_DATA_DIR: workDir }),
    launchChromium(),
  ]);
  page = await browser.context.newPage();
  page.setDefaultTimeout(30_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await redis?.stop();
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

/** Whole pages, and (`fullPage: false`) what a laptop screen shows first. */
const shot = (name: string, fullPage = true) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage });
const api = async (pathName: string) => {
  const response = await fetch(`${serve.url}${pathName}`, { headers: { authorization: `Bearer ${serve.token}` } });
  return (await response.json()) as Record<string, unknown>;
};

// Generous limits for a loaded machine: every step waits for a condition, none sleeps.
describe('the dashboard in a real browser against seatflow serve --sim', { timeout: 120_000 }, () => {
  it('signs in with the control token, through a form, into an HttpOnly SameSite=Strict cookie', async () => {
    await page.goto(`${serve.url}/batches`);
    await page.waitForURL(/\/login\?next=%2Fbatches$/);
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await page.getByLabel('Control token').fill('not-the-token-but-long-enough-to-send-0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not the control token' }).waitFor();
    await shot('01-sign-in');

    await page.getByLabel('Control token').fill(serve.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/batches$/);
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'seatflow_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.value).not.toContain(serve.token);
    expect(page.url()).not.toContain(serve.token);
    expect(await page.content()).not.toContain(serve.token);
    await expect(page.getByText('SIMULATION').first().isVisible()).resolves.toBe(true);
  });

  it('plans a dropped manifest, shows verdicts and the guardrail check, submits on confirmation and runs it to the end', async () => {
    const manifest = await manifestText();
    await page.getByRole('link', { name: 'Plan a manifest' }).first().click();
    await page.waitForURL(/\/plan$/);
    // Drop the file on the drop zone as a person would drag it from their desktop.
    // (A string: this runs in the page, and the project's TypeScript has no DOM types.)
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
    await shot('02-plan-preview');

    // Without the confirmation box the browser refuses to send the form.
    await page.getByRole('button', { name: 'Submit the batch' }).click();
    expect(page.url()).toMatch(/\/plan$/);
    await page.getByLabel(/I checked this plan: run its \d+ changes, over the guardrails/).check();
    const liveRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/live')) liveRequests.push(request.url());
    });
    await page.getByRole('button', { name: 'Submit the batch' }).click();
    await page.waitForURL(/\/batches\/b[0-9a-f]{12}$/);
    const batchUrl = page.url();
    const batchId = /\/batches\/(b[0-9a-f]{12})$/.exec(batchUrl)![1]!;
    await page.locator('#batch-live .badge.state-queued').waitFor();
    // Half-way, as the live part shows it (docs/dashboard-batch.png is the screen-sized picture).
    // (Polled from here: the page's Content-Security-Policy rightly forbids evaluating strings in it.)
    await waitFor('the batch to be half done', async () => {
      const done = Number(await page.locator('#batch-live progress').getAttribute('value'));
      return done >= Math.ceil(manifest.rows / 2) ? done : undefined;
    }, 45_000);
    await shot('03-batch-running');
    await shot('03-batch-running-screen', false);

    // Live updates: the page itself, never reloaded, reaches the finished state.
    await page.locator('#batch-live .badge.state-finished').waitFor({ timeout: 45_000 });
    await page.locator('#batch-live').getByText(`${manifest.rows} / ${manifest.rows} rows`).waitFor();
    expect(page.url()).toBe(batchUrl);
    expect(liveRequests.length).toBeGreaterThan(0);
    const batch = (await api(`/v1/batches/${batchId}`)) as { state: string; counts: Record<string, number> };
    expect(batch.state).toBe('finished');
    expect(batch.counts).toMatchObject({ unchanged: 1, skipped: 2, cancelled: 0 });
    expect(batch.counts.failed).toBeGreaterThanOrEqual(1);
    await page.reload();
    await page.locator('table.rows tbody tr').nth(manifest.rows - 1).waitFor();
    await shot('03-batch');
    expect(await page.locator('table.rows tbody tr').count()).toBe(manifest.rows);

    await page.getByRole('link', { name: /^failed/ }).click();
    await page.waitForURL(/outcome=failed$/);
    const failed = await page.locator('table.rows tbody tr').allInnerTexts();
    expect(failed).toHaveLength(batch.counts.failed!);
    expect(failed.join('\n')).toMatch(/alex\.kim@acme\.example[\s\S]*InvalidRequest[\s\S]*403[\s\S]*9002/);
    await shot('04-batch-failed-rows');

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
    await shot('05-confirm-retry');
    await page.getByRole('button', { name: 'Yes, retry' }).click();
    await page.waitForURL(new RegExp(`/batches/${batchId}$`));
    // The row runs again and gets a new outcome (the service refuses it again: it is still managed elsewhere).
    const outcome = await waitFor('the retried row to end', async () => {
      const text = await (await fetch(`${serve.url}/v1/batches/${batchId}/outcomes`, { headers: { authorization: `Bearer ${serve.token}` } })).text();
      const rows = text.trim().split('\n').map((line) => JSON.parse(line) as { email?: string; finishedAt: string; outcome: string });
      const row = rows.find((r) => r.email === 'alex.kim@acme.example');
      return row !== undefined && row.finishedAt > clickedAt ? row : undefined;
    }, 45_000);
    expect(outcome.outcome).toBe('failed');
    await page.locator('#batch-live .badge.state-finished').waitFor({ timeout: 45_000 });
  });

  it('lists a leaver on hold and undoes the offboarding through the confirmation page: the user is active again', async () => {
    const users = async () => {
      const response = await fetch(`${serve.simUrl}/users?pageSize=500`, { headers: { authorization: 'Bearer sim-admin-token' } });
      return ((await response.json()) as { data: Array<{ email: string; status: string; admin?: boolean }> }).data;
    };
    // Some demo users are managed by an identity provider (the service refuses their deactivation, and the API does
    // not tell which): a few leavers, so that at least one is deactivated and held. The demo data is deterministic.
    const candidates = (await users()).filter((user) => /^[a-z]+\.[a-z]+\.\d+@acme\.example$/.test(user.email) && user.status === 'ACTIVE' && user.admin !== true).slice(0, 4);
    expect(candidates).toHaveLength(4);
    const submitted = await fetch(`${serve.url}/v1/offboardings?hold=7d`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'text/csv' },
      body: `email\n${candidates.map((user) => user.email).join('\n')}\n`,
    });
    expect(submitted.status).toBe(202);
    const { offboardingId } = (await submitted.json()) as { offboardingId: string };
    // The server's worker deactivates the leavers at once (no leave date); the hold then keeps the removal back.
    let seen = '';
    const leaver = await waitFor('the leavers to be deactivated and held', async () => {
      const status = (await api(`/v1/offboardings/${offboardingId}`)) as { leavers?: Array<{ email: string; phase: string }> };
      seen = JSON.stringify(status.leavers ?? status);
      const leavers = status.leavers ?? [];
      if (leavers.length === 0 || leavers.some((l) => l.phase === 'scheduled' || l.phase === 'deactivating')) return undefined;
      return leavers.find((l) => l.phase === 'holding')?.email ?? 'none';
    }, 45_000).catch((error: Error) => {
      throw new Error(`${error.message}; last status: ${seen}`);
    });
    expect(leaver, seen).not.toBe('none');

    await page.getByRole('link', { name: 'Holds' }).click();
    await page.waitForURL(/\/holds$/);
    const undo = page.getByRole('link', { name: `Undo the offboarding of ${leaver}…` });
    await undo.waitFor();
    await shot('08-holds');
    await undo.click();
    await page.getByRole('heading', { name: 'Undo offboarding' }).waitFor();
    await page.getByText(`Undo the offboarding of ${leaver}?`).waitFor();
    await shot('09-confirm-undo');
    await page.getByRole('button', { name: 'Yes, undo' }).click();
    await page.getByRole('status').filter({ hasText: `${leaver}: undone` }).waitFor();
    await waitFor('the leaver to be reactivated on the service', async () => ((await users()).find((user) => user.email === leaver)?.status === 'ACTIVE' ? true : undefined), 45_000);

    await page.getByRole('link', { name: 'See the offboarding' }).click();
    await page.waitForURL(new RegExp(`/offboardings/${offboardingId}$`));
    await page.locator('#offboarding-live').getByText('undone by dashboard').waitFor();
    await shot('10-offboarding');

    // Schedules: read-only; this server's target has none.
    await page.getByRole('link', { name: 'Schedules' }).click();
    await page.getByText('No reconciliation schedules for this target.').waitFor();
    await expect(page.getByText('seatflow schedule add NAME POLICY').isVisible()).resolves.toBe(true);
    await shot('11-schedules');
  });

  it('lists the batch, serves the queue board behind the sign-in, and /metrics shows the batch', async () => {
    await page.goto(`${serve.url}/batches`);
    // The plan page's batch (the offboarding test's step batches are newer).
    const batchRow = page.locator('table.batches tbody tr').filter({ hasText: 'offboarding.csv' });
    await batchRow.waitFor();
    expect(await batchRow.innerText()).toMatch(/offboarding\.csv[\s\S]*SIMULATION[\s\S]*finished/);
    await shot('06-batches');

    await page.goto(`${serve.url}/admin/queues`);
    await page.getByText('seatflow queues').first().waitFor();
    await page.getByText('Loading...').waitFor({ state: 'hidden' });
    await shot('07-queues');
    // Read-only: Bull Board's own actions are refused by the server, not just hidden.
    const { queues } = (await (await page.request.get(`${serve.url}/admin/queues/api/queues`)).json()) as { queues: Array<{ name: string }> };
    expect(queues.length).toBe(1);
    const pause = await page.request.put(`${serve.url}/admin/queues/api/queues/${encodeURIComponent(queues[0]!.name)}/pause`);
    expect(pause.status()).toBe(405);

    const metrics = await page.request.get(`${serve.url}/metrics`);
    const text = await metrics.text();
    expect(text).toMatch(/seatflow_rows_finished_total\{action="deactivate",outcome="failed"\} [2-9]/);
    expect(text).toMatch(/seatflow_rows_finished_total\{action="deactivate",outcome="succeeded"\} [1-9]/);
    expect(text).toMatch(/seatflow_rows_finished_total\{action="remove",outcome="succeeded"\} 2/);
    expect(text).toMatch(/seatflow_api_calls_total\{operation="users\.deactivate",status_class="4xx"\} [2-9]/);
    expect(text).toMatch(/seatflow_batch_duration_seconds_count [1-9]/);
    expect(text).toMatch(/seatflow_workers [1-9]/);

    // Signed out, the pages send the person back to the sign-in form.
    await page.goto(`${serve.url}/batches`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${serve.url}/admin/queues`);
    await page.waitForURL(/\/login\?next=/);
  });
});
