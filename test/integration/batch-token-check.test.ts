import { describe, expect, it } from 'vitest';
import { createSmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import type { BatchHarness } from '../helpers/batch-harness.js';

const batches = useBatchHarnesses();

/** The admin's client, counting its GET /users/me calls (the token re-reads). */
function countingClient(h: BatchHarness) {
  let reads = 0;
  const budget = h.system.budget({ accessToken: h.server.tokens.admin, rate: { requests: 6000, perSeconds: 60, headroom: 0 } });
  const api = createSmartsheetClient({
    baseUrl: h.server.url,
    accessToken: h.server.tokens.admin,
    beforeRequest: (info) => budget.beforeRequest(info),
    onResponse: (info) => {
      if (info.operation === 'users.getCurrent') reads += 1;
    },
  });
  return { api, budget, reads: () => reads };
}

describe('a 403 not-authorized (1004) during a batch', () => {
  it('fails only the rows on an object the admin may not change, after one token re-read for the whole batch', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    // The admin can see this sheet but only as a viewer: changing its columns answers 403 1004 for that sheet alone.
    const sheet = [...h.server.context.state.sheets.values()].find((s) => s.name === 'Jordan – Q4 Pipeline')!;
    const adminId = h.server.context.state.usersByEmail.get('admin@acme.example')!;
    sheet.sharing[String(adminId)] = 'VIEWER';
    const leavers = await h.deactivatableEmails(6);
    const file = h.writeManifest('mixed.jsonl', [
      ...leavers.map((email) => JSON.stringify({ action: 'deactivate', email })),
      ...['A', 'B', 'C', 'D'].map((title) => JSON.stringify({ action: 'add-column', sheetId: String(sheet.id), title: `Col ${title}`, type: 'TEXT_NUMBER', index: 1 })),
    ]);
    const { batch } = await h.system.submit(await h.plan(file));
    const client = countingClient(h);
    h.startWorkers({ concurrency: 8, api: client.api, budget: client.budget });
    const done = await h.waitForState(batch.id, ['finished']);
    expect(done.counts).toMatchObject({ succeeded: 6, failed: 4 });
    const refused = (await h.outcomes(batch.id)).filter((o) => o.outcome === 'failed');
    expect(refused.every((o) => o.category === 'Authorization' && o.status === 403 && o.errorCode === 1004)).toBe(true);
    // Shared across the fleet and cached for a while: one re-read, not one per refused row.
    expect(client.reads()).toBe(1);
    await client.api.close();
  });

  it('stops the batch when the re-read shows the token is no System Admin any more, and changes nothing', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const leavers = await h.deactivatableEmails(8);
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...leavers.map((e) => `${e},deactivate`)])));
    // dana.whitfield's token: a valid token (no 401) whose user is not an admin → 403 1004 on every row.
    const notAdmin = h.startWorkers({ concurrency: 4, ...h.clientFor(h.server.tokens.user) });
    const stopped = await h.waitForState(batch.id, ['stopped']);
    await notAdmin.close(2000);
    expect(stopped.counts.failed).toBe(0);
    expect(stopped.message).toMatch(/seatflow retry/);
    expect((await h.mutations()).filter((m) => m.operation === 'deactivateUser')).toEqual([]);
  });
});
