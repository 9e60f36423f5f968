import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { createEventKeys } from '../../src/events/event-keys.js';
import { createOwnChangeLedger } from '../../src/events/own-change-ledger.js';
import { createUserEventLog } from '../../src/events/user-event-log.js';
import { HARNESS_TIMEOUTS, type BatchHarness } from '../helpers/batch-harness.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

/**
 * A lost answer, then an outside undo (the simulation's seed 3, docs/batches.md): a deactivation
 * the service made while its answer was lost, then an admin reactivating the user in the Admin Center before the row's
 * retry. Reading the user finds them active; only the service's events say the deactivation landed.
 */
const batches = useBatchHarnesses();
const CONTROL_TOKEN = 'control-token-of-the-lost-answer-test-0123456789';

async function waitUntil<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function sim(h: BatchHarness, method: string, route: string, body?: unknown): Promise<void> {
  const response = await fetch(`${h.server.origin}/_sim${route}`, { method, headers: { authorization: `Bearer ${h.server.tokens.admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
}

/** `seatflow serve` (no workers) on the harness's Redis, prefix and service: it takes the callbacks and handles them. */
async function startServe(h: BatchHarness): Promise<{ serve: ChildProcess; env: NodeJS.ProcessEnv; url: string }> {
  writeFileSync(path.join(h.dir, 'config.json'), JSON.stringify({ control: { token: CONTROL_TOKEN } }));
  const env = {
    REDIS_URL: batches.redis().url,
    SEATFLOW_QUEUE_PREFIX: h.prefix,
    SMARTSHEET_API_BASE: h.server.url,
    SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin,
    SEATFLOW_HOME: path.join(h.dir, 'home'),
    SEATFLOW_CONFIG: path.join(h.dir, 'config.json'),
    SEATFLOW_LOG_LEVEL: 'warn',
  };
  const serve = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'serve', '--port', '0'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /dashboard: (http:\/\/[^/\s]+)\//.exec(out)?.[1];
      if (found !== undefined) resolve(found);
    });
    serve.once('exit', (code) => reject(new Error(`seatflow serve exited with ${code}: ${out}`)));
  });
  return { serve, env, url };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Subscribes seatflow serve (at `url`) to the service's events, then queues a one-row batch for a user (by default a
 * deactivation; `rowFor` gives another row for the user's e-mail).
 */
async function subscribedRow(h: BatchHarness, env: NodeJS.ProcessEnv, url: string, rowFor: (email: string) => object = (email) => ({ action: 'deactivate', user: { email } })) {
  const subscribed = await runSeatflow(['webhooks', 'subscribe', '--url', `${url}/hooks/smartsheet`], env);
  expect(subscribed.code, subscribed.stderr).toBe(0);
  const [email] = await h.deactivatableEmails(1);
  const userId = [...h.server.context.state.users.values()].find((user) => user.email === email)!.id;
  const plan = await h.plan(h.writeManifest('d.json', [JSON.stringify({ version: 1, rows: [rowFor(email!)] })]));
  const { batch } = await h.system.submit(plan);
  return { email: email!, userId, batch };
}

/** The workers' client notes each user-changing call in the own-change ledger, as seatflow's does (batch-runtime.ts). */
function clientWithLedger(h: BatchHarness) {
  const ledger = createOwnChangeLedger(h.redisHandle.client, createEventKeys(h.prefix, h.server.url));
  return createSmartsheetClient({
    baseUrl: h.server.url,
    accessToken: h.server.tokens.admin,
    timeouts: HARNESS_TIMEOUTS,
    beforeRequest: async (info) => {
      await ledger.note(info);
      await h.budget.beforeRequest(info);
    },
  });
}

describe('a lost answer, then an outside undo', () => {
  it("does not deactivate again a user an admin reactivated after seatflow's lost deactivation: the service's event says it landed", async () => {
    // Callbacks go out 3 s after their first event: the row's retry reads the user before seatflow hears of either change.
    const h = await batches.open({ rateLimit: 'off', callbackDebounceMs: 3000 });
    const { serve, env, url } = await startServe(h);
    const client = clientWithLedger(h);
    try {
      const { email, userId, batch } = await subscribedRow(h, env, url);
      const deactivations = async () => (await h.mutations()).filter((m) => m.operation === 'deactivateUser' && m.userId === userId);

      // Every answer is lost after the service acted: the deactivation lands, and the retries' reads get no answer.
      await sim(h, 'PUT', '/faults', { spec: 'reset-after:1', seed: 3 });
      h.startWorkers({ concurrency: 1, api: client, budget: h.budget, policy: { maxAttempts: 100, maxElapsedMs: 120_000, baseDelayMs: 100, maxDelayMs: 200 }, witness: createUserEventLog(h.redisHandle.client, createEventKeys(h.prefix, h.server.url)), eventWaitMs: 30_000 });
      await waitUntil('the lost deactivation', async () => ((await deactivations()).length > 0 ? true : undefined));
      // An admin reactivates the user in the Admin Center; only then does the service answer again.
      await sim(h, 'POST', '/outside-change', { user: email, change: 'reactivate' });
      await sim(h, 'PUT', '/faults', { spec: '', seed: 3 });

      const done = await h.waitForState(batch.id, ['finished'], 60_000);
      expect(await deactivations()).toHaveLength(1);
      expect(done.counts).toMatchObject({ succeeded: 1 });
      const [outcome] = await h.outcomes(batch.id);
      expect(outcome).toMatchObject({ outcome: 'succeeded', confirmed: true });
      // Whether the admin's reactivation was heard by then depends on when its callback came (a loaded machine: later).
      expect(outcome?.message).toMatch(/user\.deactivated event .* confirms it\)($|; since then .* was reactivated by .*, outside seatflow: not done again)/);
      expect(h.server.context.state.users.get(userId)?.status).toBe('ACTIVE');
    } finally {
      await stop(serve);
      await client.close();
    }
  }, 180_000);

  it("does not downgrade again a user an admin gave a Member seat back after seatflow's lost downgrade: the seat event of the plan says it landed", async () => {
    const h = await batches.open({ rateLimit: 'off', callbackDebounceMs: 3000 });
    const { serve, env, url } = await startServe(h);
    const client = clientWithLedger(h);
    try {
      const { email, userId, batch } = await subscribedRow(h, env, url, (row) => ({ action: 'downgrade', user: { email: row }, seatType: 'CONTRIBUTOR' }));
      const downgrades = async () => (await h.mutations()).filter((m) => m.operation === 'downgradeUser' && m.userId === userId);

      await sim(h, 'PUT', '/faults', { spec: 'reset-after:1:writes', seed: 3 });
      h.startWorkers({ concurrency: 1, api: client, budget: h.budget, policy: { maxAttempts: 100, maxElapsedMs: 120_000, baseDelayMs: 100, maxDelayMs: 200 }, witness: createUserEventLog(h.redisHandle.client, createEventKeys(h.prefix, h.server.url)), eventWaitMs: 30_000 });
      await waitUntil('the lost downgrade', async () => ((await downgrades()).length > 0 ? true : undefined));
      await sim(h, 'POST', '/outside-change', { user: email, change: 'seat', seatType: 'MEMBER' });
      await sim(h, 'PUT', '/faults', { spec: '', seed: 3 });

      const done = await h.waitForState(batch.id, ['finished'], 60_000);
      expect(await downgrades()).toHaveLength(1);
      const [outcome] = await h.outcomes(batch.id);
      expect(outcome).toMatchObject({ outcome: 'succeeded', confirmed: true });
      // The retry's read may come before the admin's change (the seat read as given: confirmed by the read), else the
      // seat event tells it, heard before the admin's or with it; which one depends on the machine's load.
      expect(outcome?.message).toMatch(/^done by this batch \((confirmed after a lost answer|the answer was lost; the service's user\.seatType\.updated event .* confirms it)\)/);
      expect(done.counts).toMatchObject({ succeeded: 1 });
      expect(h.server.context.state.users.get(userId)?.seats.map((seat) => seat.seatType)).toEqual(['MEMBER']);
    } finally {
      await stop(serve);
      await client.close();
    }
  }, 180_000);

  it('sends a deactivation that never landed again once the wait for its event is over', async () => {
    const h = await batches.open({ rateLimit: 'off', callbackDebounceMs: 50 });
    const { serve, env, url } = await startServe(h);
    try {
      const { userId, batch } = await subscribedRow(h, env, url);
      // The connection is cut before the service acts: the row cannot tell, and no event will ever come.
      await sim(h, 'PUT', '/faults', { spec: 'reset:1', seed: 3 });
      const started = Date.now();
      h.startWorkers({ concurrency: 1, policy: { maxAttempts: 100, maxElapsedMs: 120_000, baseDelayMs: 100, maxDelayMs: 200 }, witness: createUserEventLog(h.redisHandle.client, createEventKeys(h.prefix, h.server.url)), eventWaitMs: 3000 });
      // The row's in-flight marker turns from 1 (a call out) to a time once that call ended without an answer.
      await waitUntil('the attempt without an answer', async () => (Number(await h.redisHandle.client.hget(h.system.keys.inflight(batch.id), '1')) > 1 ? true : undefined));
      await sim(h, 'PUT', '/faults', { spec: '', seed: 3 });

      await h.waitForState(batch.id, ['finished'], 60_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
      expect((await h.mutations()).filter((m) => m.operation === 'deactivateUser' && m.userId === userId)).toHaveLength(1);
      expect(await h.outcomes(batch.id)).toEqual([expect.objectContaining({ outcome: 'succeeded', confirmed: true })]);
    } finally {
      await stop(serve);
    }
  }, 180_000);
});

describe('a lost answer, then the same column changed by someone else', () => {
  it('does not send a column update again over a later change of the column (soak seed 6424): the row ends unknown, the other change stands', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const sheet = [...h.server.context.state.sheets.values()].find((each) => each.columns.some((column) => !column.primary && column.type === 'TEXT_NUMBER'))!;
    const column = sheet.columns.find((each) => !each.primary && each.type === 'TEXT_NUMBER')!;
    const plan = await h.plan(h.writeManifest('c.json', [JSON.stringify({ version: 1, rows: [{ action: 'update-column', sheetId: sheet.id, columnId: column.id, width: column.width + 90 }] })]));
    expect(Array.from(plan.rows, (row) => row.verdict)).toEqual(['change']);
    const { batch } = await h.system.submit(plan);
    const updates = async () => (await h.mutations()).filter((m) => m.operation === 'updateColumn' && m.resourceId === column.id);

    // The update's answer is lost after the service acted; the retry comes 3 s later.
    await sim(h, 'PUT', '/faults', { spec: 'reset-after:1:writes', seed: 3 });
    h.startWorkers({ concurrency: 1, policy: { maxAttempts: 5, maxElapsedMs: 120_000, baseDelayMs: 3000, maxDelayMs: 3000 } });
    await waitUntil('the lost update', async () => ((await updates()).length > 0 ? true : undefined));
    // Before the retry, someone else sets the column's width (another batch, a person in the app).
    column.width += 200;
    const theirs = column.width;
    await sim(h, 'PUT', '/faults', { spec: '', seed: 3 });

    await h.waitForState(batch.id, ['finished'], 60_000);
    expect(await updates()).toHaveLength(1);
    expect(column.width).toBe(theirs);
    const [outcome] = await h.outcomes(batch.id);
    expect(outcome).toMatchObject({ outcome: 'unknown', category: 'Conflict' });
    expect(outcome?.message).toMatch(/^changed by someone else since this row's attempt whose answer was lost/);
  }, 180_000);
});
