import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-seatflow.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { launchChromium, startServe, waitFor, type ServeProcess } from './dashboard-browser.js';

const ARTIFACTS = path.join(ROOT, 'test', 'artifacts', 'dashboard');

// Offboarding rows of the demo organization: two changes, one already done, one refused by the pre-flight, one only
// the service refuses (alex.kim is managed by an identity provider), so that the batch has a failed row to retry.
const MANIFEST = [
  'email,action,transferTo,transferSheets,removeFromSharing',
  'jordan.lee@acme.example,remove,dana.whitfield@acme.example,true,true',
  'priya.shah@acme.example,remove,dana.whitfield@acme.example,false,',
  'marcus.chen@acme.example,deactivate,,,',
  'taylor.brooks@acme.example,deactivate,,,',
  'sam.taylor@gmail.com,deactivate,,,',
  'alex.kim@acme.example,deactivate,,,',
  'nobody.here@acme.example,deactivate,,,',
].join('\n');

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
  page.setDefaultTimeout(20_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await redis?.stop();
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
const api = async (pathName: string) => {
  const response = await fetch(`${serve.url}${pathName}`, { headers: { authorization: `Bearer ${serve.token}` } });
  return (await response.json()) as Record<string, unknown>;
};

describe('the dashboard in a real browser against seatflow serve --sim', () => {
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
    const file = path.join(workDir, 'offboarding.csv');
    writeFileSync(file, `${MANIFEST}\n`);
    await page.getByRole('link', { name: 'Plan a manifest' }).first().click();
    await page.waitForURL(/\/plan$/);
    await page.getByLabel(/Drop a manifest here/).setInputFiles(file);
    await page.getByRole('button', { name: 'Preview the plan' }).click();
    await page.getByRole('heading', { name: 'Plan of offboarding.csv' }).waitFor();
    const verdicts = await page.locator('table.rows tbody tr').allInnerTexts();
    expect(verdicts).toHaveLength(7);
    expect(verdicts.join('\n')).toMatch(/sam\.taylor@gmail\.com[\s\S]*refused/);
    await page.getByRole('heading', { name: 'Guardrails' }).waitFor();
    await shot('02-plan-preview');

    // Without the confirmation box the browser refuses to send the form.
    await page.getByRole('button', { name: 'Submit the batch' }).click();
    expect(page.url()).toMatch(/\/plan$/);
    await page.getByLabel(/I checked this plan/).check();
    await page.getByRole('button', { name: 'Submit the batch' }).click();
    await page.waitForURL(/\/batches\/b[0-9a-f]{12}$/);
    const batchId = /\/batches\/(b[0-9a-f]{12})$/.exec(page.url())![1]!;

    // Live updates: the page itself (no reload) reaches the finished state.
    await page.locator('#batch-live .badge.state-finished').waitFor({ timeout: 45_000 });
    await page.locator('#batch-live').getByText('7 / 7 rows').waitFor();
    const batch = await api(`/v1/batches/${batchId}`);
    expect(batch).toMatchObject({ state: 'finished', counts: { succeeded: 3, unchanged: 1, skipped: 2, failed: 1, cancelled: 0 } });
    await page.reload();
    await page.locator('table.rows tbody tr').nth(6).waitFor();
    await shot('03-batch');
    expect(await page.locator('table.rows tbody tr').count()).toBe(7);

    await page.getByRole('link', { name: /^failed/ }).click();
    await page.waitForURL(/outcome=failed$/);
    const failed = await page.locator('table.rows tbody tr').allInnerTexts();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/alex\.kim@acme\.example[\s\S]*InvalidRequest[\s\S]*400[\s\S]*1355/);
    await shot('04-batch-failed-rows');

    const csv = await page.request.get(`${serve.url}/batches/${batchId}/report.csv`);
    expect(csv.status()).toBe(200);
    expect((await csv.text()).split('\n').filter(Boolean)).toHaveLength(8);
    const jsonl = await page.request.get(`${serve.url}/batches/${batchId}/report.jsonl`);
    expect((await jsonl.text()).trim().split('\n')).toHaveLength(7);
  });

  it('retries the failed row after a confirmation', async () => {
    const batchId = /\/batches\/(b[0-9a-f]{12})/.exec(page.url())![1]!;
    const before = (await api(`/v1/batches/${batchId}`)) as { counts: { failed: number } };
    expect(before.counts.failed).toBe(1);
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

  it('lists the batch, serves the queue board behind the sign-in, and /metrics shows the batch', async () => {
    await page.goto(`${serve.url}/batches`);
    await page.locator('table.batches tbody tr').first().waitFor();
    expect(await page.locator('table.batches tbody tr').first().innerText()).toMatch(/offboarding\.csv[\s\S]*SIMULATION[\s\S]*finished/);
    await shot('06-batches');

    await page.goto(`${serve.url}/admin/queues`);
    await page.getByText('seatflow queues').first().waitFor();
    await page.getByText('Loading...').waitFor({ state: 'hidden' });
    await shot('07-queues');

    const metrics = await page.request.get(`${serve.url}/metrics`);
    const text = await metrics.text();
    expect(text).toMatch(/seatflow_rows_finished_total\{action="deactivate",outcome="failed"\} 2/);
    expect(text).toMatch(/seatflow_rows_finished_total\{action="remove",outcome="succeeded"\} 2/);
    expect(text).toMatch(/seatflow_api_calls_total\{operation="users\.deactivate",status_class="4xx"\} 2/);
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
