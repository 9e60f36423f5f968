import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRegistry } from '../../jobs/registry.js';
import { planRevert, revertBatchOptions } from '../../src/governance/revert/plan-revert.js';
import { planWebhookMigration, webhookMigrationRequestSchema, type WebhookMigrationRequest } from '../../src/migrate/plan-webhook-migration.js';
import { writeReport } from '../../src/queue/report-writer.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const GUARDRAILS = { destructiveMaxCount: 1e6, destructiveMaxShare: 1 };
const batches = useBatchHarnesses();
const tempDir = useTempDirs();
let subscriber: Server;
let base: string;

/** A subscriber on loopback that answers the verification challenge, except under /new/broken (a URL nobody serves yet). */
beforeAll(async () => {
  subscriber = createServer((request, response) => {
    request.resume();
    if (request.url?.startsWith('/new/broken') === true) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'smartsheet-hook-response': String(request.headers['smartsheet-hook-challenge'] ?? '') }).end('{}');
  });
  await new Promise<void>((resolve) => subscriber.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(subscriber.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => subscriber.close(resolve));
});

async function enabledWebhook(h: BatchHarness, name: string, url: string): Promise<number> {
  const sheetId = (await h.api.sheets.listPage()).data[0]!.id;
  const created = await h.api.webhooks.create({ name, callbackUrl: url, scope: 'sheet', scopeObjectId: sheetId, events: ['*.*'], version: 1 });
  expect((await h.api.webhooks.update(created.id, { enabled: true })).enabled).toBe(true);
  return created.id;
}

async function run(h: BatchHarness, request: WebhookMigrationRequest) {
  const planned = await planWebhookMigration({ api: h.api, request: webhookMigrationRequestSchema.parse(request), guardrails: GUARDRAILS, nowMs: h.server.context.clock.now() });
  const submitted = await h.system.submit(planned.plan);
  await h.waitForState(submitted.batch.id, ['finished'], 60_000);
  return { planned, batchId: submitted.batch.id, outcomes: await h.outcomes(submitted.batch.id) };
}

describe('seatflow migrate webhooks, against the reference server', { timeout: 120_000 }, () => {
  it('re-points callback URLs through the verification: a webhook whose new URL fails is left disabled and reported; a re-run changes nothing', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const good = await enabledWebhook(h, 'Assets to the new host', `${base}/old/good`);
    const broken = await enabledWebhook(h, 'Assets to nowhere', `${base}/old/broken`);
    h.startWorkers();
    const since = h.server.requests.list().at(-1)?.seq ?? 0;
    const { planned, outcomes, batchId } = await run(h, { mode: 'repoint', from: `${base}/old`, to: `${base}/new` });
    // The plan's listing is each row's state before (for revert): no webhook is read again before its update.
    expect(h.server.requests.list({ afterSeq: since, operation: 'getWebhook' })).toHaveLength(0);
    expect(h.server.requests.list({ afterSeq: since, operation: 'updateWebhook' })).toHaveLength(2);
    expect(Array.from(planned.plan.rows, (row) => [row.target.webhookId, row.verdict])).toEqual([[good, 'change'], [broken, 'change']].sort((a, b) => Number(a[0]) - Number(b[0])));
    const webhooks = h.server.context.state.webhooks;
    expect(webhooks.get(good)).toMatchObject({ callbackUrl: `${base}/new/good`, enabled: true, status: 'ENABLED' });
    expect(webhooks.get(broken)).toMatchObject({ callbackUrl: `${base}/new/broken`, enabled: false, status: 'DISABLED_VERIFICATION_FAILED' });
    const failed = outcomes.find((outcome) => outcome.outcome === 'failed');
    expect(failed?.message).toMatch(/failed verification .*stays disabled/);
    // The other webhooks (not on the old prefix) were not planned.
    expect(planned.plan.summary.total).toBe(2);

    // Re-run: the good one is already at its new URL (no row), the broken one is too, and stays off (no change).
    const again = await planWebhookMigration({ api: h.api, request: { mode: 'repoint', from: `${base}/old`, to: `${base}/new` }, guardrails: GUARDRAILS, nowMs: h.server.context.clock.now() });
    expect(again.plan.summary.change).toBe(0);

    // Revert, from the state the plan read: the re-pointed webhook goes back to its old URL, on (verified there again).
    const revert = await planRevert({ batchId, store: h.system.store, registry: createJobRegistry(), api: h.api, guardrails: { ...GUARDRAILS, protectedAccounts: [] }, reactivationWindowDays: 30 });
    expect(revert.plan.summary.change).toBe(1);
    const reverting = await h.system.submit(revert.plan, { options: revertBatchOptions(batchId) });
    await h.waitForState(reverting.batch.id, ['finished'], 60_000);
    expect(webhooks.get(good)).toMatchObject({ callbackUrl: `${base}/old/good`, enabled: true, status: 'ENABLED' });
  });

  it('rotates every shared secret into the named file only: never in the outcomes or the report', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const dir = tempDir('sf-rotate-');
    const file = path.join(dir, 'webhook-secrets.jsonl');
    h.startWorkers();
    const { planned, batchId, outcomes } = await run(h, { mode: 'rotate-secrets', secretsTo: file });
    const rotated = Array.from(planned.plan.rows, (row) => row.target.webhookId!);
    expect(rotated.length).toBeGreaterThan(0);
    const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { webhookId: number; sharedSecret: string });
    const secrets = rotated.map((id) => h.server.context.state.webhooks.get(id)!.sharedSecret);
    expect(new Map(lines.map((line) => [line.webhookId, line.sharedSecret]))).toEqual(new Map(rotated.map((id, i) => [id, secrets[i]])));
    const report = path.join(dir, 'report.csv');
    await writeReport(h.system.store.outcomes(batchId), report);
    const written = `${JSON.stringify(outcomes)}\n${await readFile(report, 'utf8')}`;
    for (const secret of secrets) expect(written).not.toContain(secret);
  });
});
