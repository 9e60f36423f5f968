import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-seatflow.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { checkPage, DESKTOP, expectAccessible as expectAccessibleOn } from './check-page.js';
import { focusAfterLoad, launchChromium, startServe, waitFor, type ServeProcess } from './dashboard-browser.js';

const ARTIFACTS = path.join(ROOT, 'test', 'artifacts', 'governance');
const PAGES = path.join(ROOT, 'test', 'artifacts', 'dashboard', 'pages');
const ALICE = 'alice-token-0123456789abcdef0123456789';
const BOB = 'bob-token-0123456789abcdef0123456789abcd';

let redis: TestRedis;
let serve: ServeProcess;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let workDir: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  mkdirSync(PAGES, { recursive: true });
  workDir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-governance-'));
  const config = path.join(workDir, 'seatflow.json');
  writeFileSync(config, JSON.stringify({
    governance: {
      operators: [
        { name: 'alice', role: 'operator', token: ALICE },
        { name: 'bob', role: 'approver', token: BOB },
      ],
      approvals: { changesAbove: 2 },
    },
  }));
  redis = await startTestRedis();
  [serve, browser] = await Promise.all([
    startServe({ REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: redis.prefix(), SEATFLOW_DATA_DIR: workDir, SEATFLOW_CONFIG: config }),
    launchChromium(),
  ]);
  page = await browser.context.newPage();
  await page.setViewportSize(DESKTOP);
  page.setDefaultTimeout(30_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await redis?.stop();
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

const expectAccessible = (what: string) => expectAccessibleOn(page, what);
const check = (name: string) => checkPage(page, PAGES, name);

async function signInAs(token: string, next: string): Promise<void> {
  await page.goto(`${serve.url}${next}`);
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel('Control token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(new RegExp(`${next.replace(/[/?]/g, '\\$&')}$`));
}

let requestId = '';

describe('approvals and the audit trail in a real browser against seatflow serve --sim', { timeout: 120_000 }, () => {
  it('an operator submits a batch over the threshold: it waits on the approvals page, which she cannot approve', async () => {
    await signInAs(ALICE, '/plan');
    const response = await fetch(`${serve.simUrl}/users?pageSize=500`, { headers: { authorization: 'Bearer sim-admin-token' } });
    const users = ((await response.json()) as { data: Array<{ email: string; status: string; admin?: boolean }> }).data;
    const leavers = users.filter((user) => /^[a-z]+\.[a-z]+\.\d+@acme\.example$/.test(user.email) && user.status === 'ACTIVE' && user.admin !== true).slice(0, 4);
    await page.setInputFiles('input[type=file]', { name: 'leavers.csv', mimeType: 'text/csv', buffer: Buffer.from(`email,action\n${leavers.map((user) => `${user.email},deactivate`).join('\n')}\n`) });
    await page.getByRole('button', { name: 'Preview the plan' }).click();
    await page.getByRole('heading', { name: 'Plan of leavers.csv' }).waitFor();
    await page.getByLabel(/I checked this plan/).check();
    await page.getByLabel(/Ticket or reason/).fill('HR-4711');
    await page.getByRole('button', { name: 'Submit the batch' }).click();
    // Post, redirect, get: the request's page, saying it waits for another person.
    await page.waitForURL(/\/approvals\/b[0-9a-f]{12}\?done=[0-9a-f]{32}$/);
    requestId = /\/approvals\/(b[0-9a-f]{12})\?/.exec(page.url())![1]!;
    await page.getByRole('status').filter({ hasText: 'Submitted by alice: the approvals policy holds this change' }).waitFor();
    await page.getByRole('heading', { name: 'leavers.csv' }).waitFor();
    await page.getByText('awaiting approval').first().waitFor();
    await page.getByText('You asked for this change: another approver must decide').waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await page.locator('table.rows tbody tr').count()).toBe(4);
    await check('approval-requester');

    await page.getByRole('link', { name: 'Approvals' }).first().click();
    await page.waitForURL(/\/approvals$/);
    await page.getByRole('heading', { name: 'Waiting for approval (1)' }).waitFor();
    expect(await page.locator('#approvals-live table.approvals tbody tr').first().innerText()).toMatch(/leavers\.csv[\s\S]*awaiting approval[\s\S]*alice[\s\S]*HR-4711[\s\S]*4 changes, more than governance\.approvals\.changesAbove \(2\)/);
    await check('approvals');
    // Nothing was queued while it waits.
    expect((await fetch(`${serve.url}/v1/batches/${requestId}`, { headers: { authorization: `Bearer ${ALICE}` } })).status).toBe(404);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
  });

  it('another person approves it after a confirmation: re-planned, it runs', async () => {
    await signInAs(BOB, `/approvals/${requestId}`);
    await page.getByRole('heading', { name: 'Decide' }).waitFor();
    await check('approval-approver');
    // Without the confirmation box the browser refuses to send the form.
    await page.getByRole('button', { name: 'Approve' }).click();
    expect(page.url()).toMatch(new RegExp(`/approvals/${requestId}$`));
    await page.getByLabel(/I checked this plan/).check();
    await page.getByLabel('Note').fill('checked with HR');
    await page.getByRole('button', { name: 'Approve' }).click();
    // Post, redirect, get: the approval page with the result first, keyboard focus on it.
    await page.waitForURL(new RegExp(`/approvals/${requestId}\\?done=[0-9a-f]{32}$`));
    await page.getByRole('status').filter({ hasText: `Approved by bob: planned again against live state, the plan is the one approved; queued as ${requestId}` }).waitFor();
    expect(await focusAfterLoad(page, 'result')).toBe('result');
    await check('approved');
    const batch = await waitFor('the approved batch to finish', async () => {
      const answer = await fetch(`${serve.url}/v1/batches/${requestId}`, { headers: { authorization: `Bearer ${BOB}` } });
      const body = (await answer.json()) as { state?: string; counts?: Record<string, number> };
      return body.state === 'finished' ? body : undefined;
    }, 60_000);
    expect(Object.values(batch.counts ?? {}).reduce((sum, n) => sum + n, 0)).toBe(4);
  });

  it('shows the audit trail, verifies its chain, and exports it', async () => {
    await page.getByRole('link', { name: 'Audit' }).first().click();
    await page.waitForURL(/\/audit$/);
    const rows = page.locator('table.audit tbody tr');
    await rows.first().waitFor();
    const text = (await rows.allInnerTexts()).join('\n');
    expect(text).toMatch(/change\.requested\s+alice[\s\S]*HR-4711/);
    expect(text).toMatch(/change\.approved\s+bob[\s\S]*checked with HR/);
    expect(text).toMatch(/row\.applied\s+worker/);
    await check('audit');
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    await page.getByRole('status').filter({ hasText: /Intact: \d+ entries/ }).waitFor();
    await expectAccessible('the audit page, verified');
    await shot('05-audit');
    // Filtered to one person and one kind of event; each id a link.
    await page.getByLabel('Who').fill('bob');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\/audit\?actor=bob/);
    const filtered = (await page.locator('table.audit tbody tr').allInnerTexts()).join('\n');
    expect(filtered).toMatch(/change\.approved\s+bob/);
    // alice's request is not among them (bob's entries may name her as the requester).
    expect(filtered).not.toMatch(/change\.requested/);
    await page.locator('table.audit tbody').getByRole('link', { name: requestId, exact: true }).first().click();
    await page.waitForURL(new RegExp(`/approvals/${requestId}$`));
    const exported = await page.request.get(`${serve.url}/audit/export?format=jsonl`);
    expect(exported.status()).toBe(200);
    expect((await exported.text()).trim().split('\n').length).toBeGreaterThanOrEqual(6);
  });
});
