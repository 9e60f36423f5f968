import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discussionMarker } from '../../jobs/discussion-marker.js';
import { longestRequestMs } from '../../src/client/longest-request-ms.js';
import type { BatchRecord } from '../../src/queue/batch-store.js';
import { FAST_RETRY, type BatchHarness } from '../helpers/batch-harness.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';

const batches = useBatchHarnesses();
const SHEET = 2094857361029384;

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function submitDiscussions(h: BatchHarness, count: number): Promise<BatchRecord> {
  const rows = Array.from({ length: count }, (_, i) => ({ action: 'create-discussion', sheetId: String(SHEET), comment: `Handover note ${i + 1}` }));
  const plan = await h.plan(h.writeManifest('d.json', [JSON.stringify({ version: 1, rows })]));
  return (await h.system.submit(plan)).batch;
}

/** How many discussions on the sheet carry each row's marker, read from the server's state (no faults, no paging). */
function discussionsPerRow(h: BatchHarness, batchId: string, count: number): number[] {
  const sheet = h.server.context.state.sheets.get(SHEET);
  const texts = (sheet?.discussions ?? []).map((d) => d.comments[0]?.text ?? '');
  return Array.from({ length: count }, (_, i) => texts.filter((text) => text.includes(discussionMarker(batchId, i + 1))).length);
}

/**
 * Waits out the injected delay, so that a request still held by the server has landed before discussions are
 * counted. Not a race: the server holds a request at most `delayMs` and then serves it.
 */
async function lateRequestsLanded(delayMs: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, delayMs + 500));
}

async function setFaults(h: BatchHarness, spec: string): Promise<void> {
  await fetch(`${h.server.origin}/_sim/faults`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${h.server.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ spec, seed: 7 }),
  });
}

/**
 * Runs the batch while half the calls take 2.5 s and the client gives up on the headers after 1 s: those requests land
 * 1.5 s after it did (a request lasts at most 3 s, headers and body). Returns the finished batch once every late
 * request has landed.
 */
async function runUnderLateAnswers(h: BatchHarness, batchId: string): Promise<BatchRecord> {
  await setFaults(h, 'delay:2500ms:0.5');
  const timeouts = { headersMs: 1000, bodyMs: 2000 };
  h.startWorkers({ concurrency: 4, ...h.clientFor(h.server.tokens.admin, timeouts), requestSettleMs: longestRequestMs(timeouts), policy: { ...FAST_RETRY, maxAttempts: 30 } });
  const done = await h.waitForState(batchId, ['finished'], 120_000);
  await setFaults(h, '');
  await lateRequestsLanded(2500);
  return done;
}

describe('a change whose answer is late rather than lost', () => {
  it('is not done twice when requests outlast the client timeout: the confirm waits them out (2 workers, delay faults)', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const count = 16;
    const batch = await submitDiscussions(h, count);
    // Half the calls take 1.6 s; the client gives up on the headers after 1 s, so those creates land after it did.
    await setFaults(h, 'delay:1600ms:0.5');
    const timeouts = { headersMs: 1000, bodyMs: 1000 };
    for (let i = 0; i < 2; i += 1) {
      h.startWorkers({ concurrency: 4, ...h.clientFor(h.server.tokens.admin, timeouts), requestSettleMs: longestRequestMs(timeouts), policy: { ...FAST_RETRY, maxAttempts: 30 } });
    }
    const done = await h.waitForState(batch.id, ['finished'], 120_000);
    await setFaults(h, '');
    // A create that timed out lands up to 1.6 s after it was sent: count once every such request has landed.
    await lateRequestsLanded(1600);
    expect(discussionsPerRow(h, batch.id, count)).toEqual(Array(count).fill(1));
    expect(done.counts).toMatchObject({ succeeded: count, failed: 0, unknown: 0 });
    // Some rows did meet a late answer: found done on their confirm, after the wait.
    const outcomes = await h.outcomes(batch.id);
    expect(outcomes.some((o) => o.confirmed === true)).toBe(true);
  }, 150_000);

  it('does not send an update twice when its answer is late: a repeat would be a second change in the service\'s history', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const emails = await h.deactivatableEmails(12);
    const rows = emails.map((email, i) => ({ action: 'update', user: { email }, firstName: `Renamed${i + 1}` }));
    const plan = await h.plan(h.writeManifest('u.json', [JSON.stringify({ version: 1, rows })]));
    const { batch } = await h.system.submit(plan);
    // A confirm read made before a late update lands finds the old name.
    const done = await runUnderLateAnswers(h, batch.id);
    expect(done.counts).toMatchObject({ succeeded: emails.length, failed: 0, unknown: 0 });
    // Each update sent once (the service ignores a repeat of values already there; a column or a webhook records it):
    // the request log says what was sent, answered in time or not.
    const sent = new Map<string, number>();
    for (const request of h.server.requests.list({ operation: 'updateUser' })) sent.set(request.path, (sent.get(request.path) ?? 0) + 1);
    expect([...sent.values()]).toEqual(Array(emails.length).fill(1));
    expect((await h.mutations()).filter((m) => m.operation === 'updateUser')).toHaveLength(emails.length);
    // Some rows did meet a late answer and were found done after the wait, not sent again.
    expect((await h.outcomes(batch.id)).some((o) => o.confirmed === true)).toBe(true);
  }, 150_000);

  it('does not turn a webhook off twice when its answer is late: the service records every update of a webhook, a repeat too', async () => {
    // Found by the whole-system simulation (seed 3503): a disable whose answer was slower than the client waits was
    // confirmed by a read made before it landed, sent again, and the service recorded two updates of the webhook.
    const h = await batches.open({ rateLimit: 'off' });
    const { webhooks } = h.server.context.state;
    const model = [...webhooks.values()].find((webhook) => webhook.owner.kind !== 'app' && webhook.enabled)!;
    const ids = Array.from({ length: 12 }, (_, i) => model.id + 1000 + i);
    for (const [i, id] of ids.entries()) webhooks.set(id, { ...structuredClone(model), id, name: `Register changes ${i + 1}` });
    const rows = ids.map((id) => ({ action: 'disable-webhook', webhookId: id }));
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('w.json', [JSON.stringify({ version: 1, rows })])));
    const done = await runUnderLateAnswers(h, batch.id);
    expect(done.counts).toMatchObject({ succeeded: ids.length, failed: 0, unknown: 0 });
    const updates = (await h.mutations()).filter((m) => m.operation === 'updateWebhook');
    expect(ids.map((id) => updates.filter((m) => m.resourceId === id).length)).toEqual(Array(ids.length).fill(1));
    expect((await h.outcomes(batch.id)).some((o) => o.confirmed === true)).toBe(true);
  }, 150_000);

  it('keeps the oldest and removes the other when a late request made the row\'s discussion twice, and says so in the report', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await submitDiscussions(h, 1);
    // As left by a late create landing beside the row's own one: two discussions with its marker, the row uncertain.
    const text = `Handover note 1${discussionMarker(batch.id, 1)}`;
    const first = await h.api.discussions.create(SHEET, { comment: { text } });
    const second = await h.api.discussions.create(SHEET, { comment: { text } });
    await h.redisHandle.client.hset(h.system.keys.inflight(batch.id), '1', '2');
    h.startWorkers({ concurrency: 1 });
    const done = await h.waitForState(batch.id, ['finished'], 60_000);
    expect(discussionsPerRow(h, batch.id, 1)).toEqual([1]);
    expect(done.counts).toMatchObject({ succeeded: 1 });
    const [outcome] = await h.outcomes(batch.id);
    expect(outcome).toMatchObject({ outcome: 'succeeded', confirmed: true });
    // Both made within the same instant: the tie goes to the lower id, the same choice on every worker.
    const [kept, removed] = [first.id, second.id].sort((a, b) => a - b);
    expect(outcome?.detail).toMatchObject({ discussionId: kept, duplicatesRemoved: String(removed) });
    expect(discussionsPerRow(h, batch.id, 1)).toEqual([1]);
  }, 60_000);

  it('is not done twice when a worker is frozen (SIGSTOP) past its lock: the new owner waits out its calls and confirms', async () => {
    // Half the calls take 3 s: some of the frozen worker's creates reach the service only after its lock expired,
    // while the new owner's reads may be answered at once.
    const h = await batches.open({ rateLimit: 'off', faults: 'delay:3s:0.5' });
    const count = 12;
    const batch = await submitDiscussions(h, count);
    const config = h.writeManifest('worker-config.json', [
      JSON.stringify({ api: { timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 } }, worker: { concurrency: 4, lockDurationMs: 2000, stalledIntervalMs: 500, shutdownGraceMs: 60_000 }, retry: FAST_RETRY, rateLimit: { requests: 6000, perSeconds: 60, headroom: 0 } }),
    ]);
    const child = spawn(process.execPath, [path.resolve('bin/seatflow'), 'worker', '--config', config], {
      stdio: ['ignore', 'ignore', 'ignore'],
      env: { ...process.env, REDIS_URL: batches.redis().url, SEATFLOW_QUEUE_PREFIX: h.prefix, SMARTSHEET_API_BASE: h.server.url, SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin },
    });
    try {
      // Frozen with rows just taken: some calls went out before, some only go out when it wakes up.
      // Each wait has its own limit, all of them together within the test's: a run that stalls names where.
      await waitUntil(async () => (await h.system.queue.getActiveCount()) >= 4, 30_000);
      child.kill('SIGSTOP');
      const timeouts = { headersMs: 5000, bodyMs: 5000 };
      h.startWorkers({ concurrency: 4, ...h.clientFor(h.server.tokens.admin, timeouts), requestSettleMs: longestRequestMs(timeouts) });
      const done = await h.waitForState(batch.id, ['finished'], 120_000);
      await lateRequestsLanded(3000);
      expect(discussionsPerRow(h, batch.id, count)).toEqual(Array(count).fill(1));
      expect(done.counts).toMatchObject({ succeeded: count, failed: 0, unknown: 0 });
      // The frozen worker wakes up with its rows owned by another worker: some of its calls were answered long ago,
      // some go out only now. It is stopped once they are done (SIGTERM lets active rows finish).
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      // Named, so that a run that hangs here says so (its shutdown grace is 60 s) rather than timing out unexplained.
      const exited = once(child, 'exit');
      const late = new Promise((_, reject) => setTimeout(() => reject(new Error('the woken worker did not exit within 75 s of SIGTERM')), 75_000).unref());
      await Promise.race([exited, late]);
      await lateRequestsLanded(3000);
      expect(discussionsPerRow(h, batch.id, count)).toEqual(Array(count).fill(1));
      expect((await h.system.store.get(batch.id))?.counts).toMatchObject({ succeeded: count });
      const outcomes = await h.outcomes(batch.id);
      expect(outcomes).toHaveLength(count);
      // The scenario happened: rows the frozen worker held were taken over and confirmed before acting. Not all four
      // need be: one may finish between the active count read above and the SIGSTOP landing.
      expect(outcomes.filter((o) => o.confirmed === true).length).toBeGreaterThanOrEqual(1);
      expect(discussionsPerRow(h, batch.id, count)).toEqual(Array(count).fill(1));
    } finally {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      // A process ended by a signal has no exit code: waiting for an 'exit' it already emitted would hang the test past
      // its timeout and hide why it failed.
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
  }, 270_000);
});
