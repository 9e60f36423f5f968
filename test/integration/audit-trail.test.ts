import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.js';
import { createAuditLog } from '../../src/governance/audit/audit-log.js';
import { appendMissingRowEntries, auditRowHooks, KEPT_WHEN_MADE } from '../../src/governance/audit/row-audit.js';
import { createBatchStore } from '../../src/queue/batch-store.js';
import { recordConfigIfChanged } from '../../src/governance/audit/record-config.js';
import { verifyAuditEntries, verifyStoredLog } from '../../src/governance/audit/verify-audit.js';
import { createQueueKeys } from '../../src/queue/queue-keys.js';
import { openRedis, type RedisHandle } from '../../src/queue/redis/open-redis.js';
import { createReplicatedWrites } from '../../src/queue/redis/replicated-write.js';
import { collect } from '../helpers/collect.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
let handle: RedisHandle;
let other: RedisHandle;
let dir: string;

beforeAll(async () => {
  redis = await startTestRedis();
  dir = mkdtempSync(path.join(os.tmpdir(), 'sf-audit-'));
  handle = await openRedis({ url: redis.url, dataDir: dir, logger: createSilentLogger() });
  other = await openRedis({ url: redis.url, dataDir: dir, logger: createSilentLogger() });
});
afterAll(async () => {
  await handle?.close();
  await other?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * What a Sentinel failover does to writes the old master took after its replica's last copy: they are gone. Returns
 * what puts these keys back as they are now.
 */
async function keysAsNow(client: RedisHandle['client'], keys: readonly string[]): Promise<() => Promise<void>> {
  const dumps = await Promise.all(keys.map(async (key) => [key, await client.dumpBuffer(key)] as const));
  return async () => {
    for (const [key, dump] of dumps) {
      if (dump === null) await client.del(key);
      else await client.restore(key, 0, dump, 'REPLACE');
    }
  };
}

const clock = { now: async () => Date.now() };

const verifyLog = async (log: ReturnType<typeof createAuditLog>) =>
  verifyAuditEntries(
    (async function* () {
      for await (const { raw, id } of log.entries()) yield { raw, where: `stream id ${id}` };
    })(),
    { fromStart: true, head: await log.head() },
  );

describe('the audit log in Redis', { timeout: 60_000 }, () => {
  it('chains every entry, even when several processes append at once', async () => {
    const keys = createQueueKeys(redis.prefix());
    const a = createAuditLog(handle.client, keys);
    const b = createAuditLog(other.client, keys);
    await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).append({ event: 'row.applied', actor: 'worker', subject: 'b0123456789ab', data: { row: i } })));
    const entries = (await collect(a.entries())).map(({ raw }) => JSON.parse(raw) as { seq: number; data: { row: number } });
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(new Set(entries.map((e) => e.data.row)).size).toBe(60);
    expect(await verifyLog(a)).toMatchObject({ ok: true, entries: 60 });
  });

  it('detects a changed entry even when the stream is rewritten with the same ids, and one removed from the end', async () => {
    const keys = createQueueKeys(redis.prefix());
    const log = createAuditLog(handle.client, keys);
    for (let i = 1; i <= 6; i += 1) await log.append({ event: 'row.applied', actor: 'worker', subject: 'b0123456789ab', data: { row: i, email: `user${i}@acme.example`, outcome: 'succeeded' } });
    expect(await verifyLog(log)).toMatchObject({ ok: true, entries: 6 });

    // Someone with access to Redis rewrites the stream: entry 3 now says another user was changed.
    const stored = await collect(log.entries());
    const raw = new Redis(redis.url);
    try {
      await raw.del(keys.auditLog);
      for (const [i, { id, raw: json }] of stored.entries()) {
        const entry = JSON.parse(json) as { data: Record<string, unknown> };
        if (i === 2) entry.data.email = 'someone.else@acme.example';
        await raw.xadd(keys.auditLog, id, 'e', JSON.stringify(entry));
      }
      const tampered = await verifyLog(log);
      expect(tampered).toMatchObject({ ok: false, entries: 2, broken: { seq: 3, where: `stream id ${stored[2]!.id}` } });
      expect(tampered.broken?.problem).toMatch(/changed after it was written/);

      // Put it back, then drop the last entry: the head still names it.
      await raw.del(keys.auditLog);
      for (const { id, raw: json } of stored.slice(0, 5)) await raw.xadd(keys.auditLog, id, 'e', json);
      expect((await verifyLog(log)).broken?.problem).toMatch(/log ends at entry 5, but its head records entry 6/);
    } finally {
      raw.disconnect();
    }
  });

  it('records the configuration files once per change, by their SHA-256 only', async () => {
    const keys = createQueueKeys(redis.prefix());
    const log = createAuditLog(handle.client, keys);
    const file = path.join(dir, 'seatflow.json');
    writeFileSync(file, JSON.stringify({ control: { token: 'secret-control-token-0123456789abcdef' } }));
    expect(await recordConfigIfChanged(handle.client, keys, log, [file], 'alice')).toBe(true);
    expect(await recordConfigIfChanged(handle.client, keys, log, [file], 'bob')).toBe(false);
    writeFileSync(file, JSON.stringify({ control: { token: 'another-control-token-0123456789abcdef' } }));
    expect(await recordConfigIfChanged(handle.client, keys, log, [file], 'carol')).toBe(true);
    const entries = (await collect(log.entries())).map(({ raw }) => raw);
    expect(entries).toHaveLength(2);
    expect(entries.join('\n')).not.toMatch(/control-token-0123456789/);
    expect(JSON.parse(entries[1]!)).toMatchObject({ event: 'config.loaded', actor: 'carol', data: { files: [{ path: file, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }], previousSha256: expect.any(String) } });
    expect(readFileSync(file, 'utf8')).toContain('another');
  });

  it("appends a row's entry that a crash left out (its outcome recorded, the worker killed before its entry) once, marked recovered", async () => {
    // Found by the whole-system simulation (seed 14): a worker SIGKILLed just after two rows' outcomes left both out of the trail.
    const keys = createQueueKeys(redis.prefix());
    const log = createAuditLog(handle.client, keys);
    const withHooks = createBatchStore(handle.client, keys, auditRowHooks(log, createBatchStore(handle.client, keys).unrecordedEnds, createSilentLogger()));
    const crashed = createBatchStore(handle.client, keys);
    const batchId = 'b00000000c0a5';
    await withHooks.create({ id: batchId, source: 'm.csv', sha256: 'x', createdAt: new Date().toISOString(), total: 3, queued: 3, sim: true, target: 'sim', queueName: 'q' }, Date.now());
    const finishedAt = Date.now();
    const [first, second, third] = [1, 2, 3].map((row) => ({ batchId, row, line: row, action: 'deactivate', outcome: 'succeeded' as const, email: `user${row}@acme.example`, attempts: 1, finishedAt: new Date(finishedAt + row).toISOString() }));
    await withHooks.recordOutcome(first!);
    // Rows 2 and 3 end in a worker that dies before its entries: the outcomes are there, the trail lacks them.
    await crashed.recordOutcome(second!);
    await crashed.recordOutcome(third!);
    const rowsInTrail = async () => (await collect(log.entries())).map(({ raw }) => JSON.parse(raw) as { event: string; data: { row: number; recovered?: boolean } }).filter((entry) => entry.event === 'row.applied');
    expect((await rowsInTrail()).map((entry) => entry.data.row)).toEqual([1]);

    expect(await appendMissingRowEntries({ audit: log, store: crashed, clock, graceMs: 0 })).toBe(2);
    expect((await rowsInTrail()).map((entry) => [entry.data.row, entry.data.recovered ?? false])).toEqual([[1, false], [2, true], [3, true]]);
    // Again (another worker starts), or the dying worker's own append arriving late: nothing twice.
    expect(await appendMissingRowEntries({ audit: log, store: crashed, clock, graceMs: 0 })).toBe(0);
    await auditRowHooks(log, createBatchStore(handle.client, keys).unrecordedEnds, createSilentLogger()).onOutcome!(third!, true, 0);
    expect((await rowsInTrail()).map((entry) => entry.data.row)).toEqual([1, 2, 3]);
    expect(await verifyLog(log)).toMatchObject({ ok: true, entries: 3 });
  });

  it("appends the entry a crash left out of a batch created long before, and lets a batch go only once every end is recorded", async () => {
    // Found by the whole-system simulation (seed 2901): two rows of a batch created the day before ended in a worker
    // killed before their entries; the catch-up looked only at the 50 newest batches, and step batches created since
    // had pushed it out, so the trail never had them.
    const keys = createQueueKeys(redis.prefix());
    const log = createAuditLog(handle.client, keys);
    const crashed = createBatchStore(handle.client, keys);
    const newBatch = (id: string, total: number) => ({ id, source: 'm.csv', sha256: 'x', createdAt: new Date().toISOString(), total, queued: total, sim: true, target: 'sim', queueName: 'q' });
    const old = 'b00000000a1d0';
    await crashed.create(newBatch(old, 2), Date.now());
    await crashed.setState(old, 'queued');
    for (let i = 0; i < 60; i += 1) await crashed.create(newBatch(`b0000000${String(i).padStart(5, '0')}`, 1), Date.now());
    const outcome = (row: number) => ({ batchId: old, row, line: row, action: 'deactivate', outcome: 'succeeded' as const, email: `user${row}@acme.example`, attempts: 1, finishedAt: new Date().toISOString() });
    await crashed.recordOutcome(outcome(1));
    expect(await crashed.unrecordedEnds.count()).toBe(1);

    // A young note is its worker's, a moment away: the catch-up leaves it.
    expect(await appendMissingRowEntries({ audit: log, store: crashed, clock, graceMs: 60_000 })).toBe(0);
    expect(await appendMissingRowEntries({ audit: log, store: crashed, clock, graceMs: 0 })).toBe(1);
    const rows = async () => (await collect(log.entries())).map(({ raw }) => JSON.parse(raw) as { subject: string; data: { row: number; recovered?: boolean } }).filter((entry) => entry.subject === old);
    expect((await rows()).map((entry) => [entry.data.row, entry.data.recovered])).toEqual([[1, true]]);
    // Row 2 has yet to end: the batch stays open; once it ended and its end is recorded, the batch is done.
    const open = async () => (await crashed.openBatches.ids()).includes(old);
    expect(await open()).toBe(true);
    await crashed.recordOutcome(outcome(2));
    expect(await appendMissingRowEntries({ audit: log, store: crashed, clock, graceMs: 0 })).toBe(1);
    expect(await open()).toBe(false);
    expect(await crashed.unrecordedEnds.count()).toBe(0);

    // `retry` reopens row 2: the batch is open again, and the new run's end, left out by a crash, is appended too.
    expect(await crashed.forgetOutcome(old, 2, { outcome: 'succeeded', finishedAt: (await crashed.getOutcome(old, 2))?.finishedAt ?? '' })).toBe(true);
    expect(await open()).toBe(true);
    await crashed.recordOutcome({ ...outcome(2), finishedAt: new Date(Date.now() + 1000).toISOString() });
    expect(await appendMissingRowEntries({ audit: log, store: crashed, clock, graceMs: 0 })).toBe(1);
    expect((await rows()).map((entry) => entry.data.row)).toEqual([1, 2, 2]);
    expect(await open()).toBe(false);
    expect(await verifyStoredLog(log, crashed.unrecordedEnds.count)).toMatchObject({ ok: true, pending: 0 });
  });

  it("records a row's change once when a failover dropped its outcome and kept its entry, and the row, queued again as lost, confirmed the change", async () => {
    // Found by the whole-system simulation (Sentinel seed 4): the old master took the row's outcome and was demoted;
    // the entry, the next write, landed on the new master. The lost-row look queued the row again, it confirmed the
    // change was there and recorded it again, later: two entries for one change.
    const keys = createQueueKeys(redis.prefix());
    const log = createAuditLog(handle.client, keys);
    const store = createBatchStore(handle.client, keys, auditRowHooks(log, createBatchStore(handle.client, keys).unrecordedEnds, createSilentLogger()));
    const batchId = 'b00000000fa11';
    await store.create({ id: batchId, source: 'm.csv', sha256: 'x', createdAt: new Date().toISOString(), total: 1, queued: 1, sim: true, target: 'sim', queueName: 'q' }, Date.now());
    expect(await store.rowLifecycle.start(batchId, 1, Date.now())).toEqual({ kind: 'go' });
    const failover = await keysAsNow(handle.client, [keys.batch(batchId), keys.rowStates(batchId), keys.outcomes(batchId), keys.finishedPerSecond(batchId), keys.rowRuns(batchId)]);
    const first = { batchId, row: 1, line: 2, action: 'upgrade', outcome: 'succeeded' as const, email: 'nora@acme.example', attempts: 1, finishedAt: new Date().toISOString() };
    expect(await store.recordOutcome(first)).toBe(true);
    await failover();
    expect(await store.hasOutcome(batchId, 1)).toBe(false);
    expect(await store.rowLifecycle.statusOf(batchId, 1)).toEqual({ state: 'running' });

    const confirmedLater = { ...first, confirmed: true, message: 'done by this batch (confirmed after a lost answer)', finishedAt: new Date(Date.parse(first.finishedAt) + 5_000).toISOString() };
    expect(await store.recordOutcome(confirmedLater)).toBe(true);
    const rowsInTrail = async () =>
      (await collect(log.entries())).map(({ raw }) => JSON.parse(raw) as { event: string; subject: string; data: { row: number; outcome: string } }).filter((entry) => entry.event === 'row.applied' && entry.subject === batchId);
    expect((await rowsInTrail()).map((entry) => entry.data.outcome)).toEqual(['succeeded']);
    // Nor does a worker's start add it (its catch-up finds the outcome's run and verdict taken).
    expect(await appendMissingRowEntries({ audit: log, store, clock, graceMs: 0 })).toBe(0);
    expect(await rowsInTrail()).toHaveLength(1);
    expect(await verifyLog(log)).toMatchObject({ ok: true });
  });

  it("keeps a row's note until a replica holds its entry, so the catch-up appends an entry a failover dropped", async () => {
    // Found by the whole-system simulation (Sentinel seed 6508): the old master took a deactivation's entry just before
    // a failover and never passed it on; the note, removed on the new master, was gone too, and the trail lacked the
    // change for good.
    const keys = createQueueKeys(redis.prefix());
    const log = createAuditLog(handle.client, keys);
    // One replica wanted, none there (as on a master whose replica was just promoted): WAIT answers 0.
    const writes = createReplicatedWrites({ redis: handle.client, replicas: { count: 1, timeoutMs: 50 }, logger: createSilentLogger(), what: 'test entry', patienceMs: 200 });
    const keep = (append: () => Promise<unknown>) => writes.write(keys.auditHead, append);
    const store = createBatchStore(handle.client, keys, auditRowHooks(log, createBatchStore(handle.client, keys).unrecordedEnds, createSilentLogger(), keep));
    const batchId = 'b00000000fa12';
    await store.create({ id: batchId, source: 'm.csv', sha256: 'x', createdAt: new Date().toISOString(), total: 1, queued: 1, sim: true, target: 'sim', queueName: 'q' }, Date.now());
    const failover = await keysAsNow(handle.client, [keys.auditLog, keys.auditHead, `${keys.auditHead}:once`]);
    expect(await store.recordOutcome({ batchId, row: 1, line: 2, action: 'deactivate', outcome: 'succeeded', email: 'isla@acme.example', attempts: 1, finishedAt: new Date().toISOString() })).toBe(true);
    const rowsInTrail = async () => (await collect(log.entries())).map(({ raw }) => JSON.parse(raw) as { event: string; data: { row: number; recovered?: boolean } }).filter((entry) => entry.event === 'row.applied');
    expect(await rowsInTrail()).toHaveLength(1);
    // No replica took the entry: the note stays. The failover then drops the entry.
    expect(await store.unrecordedEnds.count()).toBe(1);
    await failover();
    expect(await rowsInTrail()).toHaveLength(0);

    // While no replica takes it, the catch-up appends it again and still keeps the note.
    expect(await appendMissingRowEntries({ audit: log, store, clock, graceMs: 0, keep })).toBe(1);
    expect(await store.unrecordedEnds.count()).toBe(1);
    await failover();
    // A replica holds what is appended now: the entry is appended once, and the note goes.
    expect(await appendMissingRowEntries({ audit: log, store, clock, graceMs: 0, keep: KEPT_WHEN_MADE })).toBe(1);
    expect((await rowsInTrail()).map((entry) => [entry.data.row, entry.data.recovered])).toEqual([[1, true]]);
    expect(await store.unrecordedEnds.count()).toBe(0);
    expect(await appendMissingRowEntries({ audit: log, store, clock, graceMs: 0, keep: KEPT_WHEN_MADE })).toBe(0);
    expect(await verifyLog(log)).toMatchObject({ ok: true, entries: 1 });
  });

  it("records each run of a retried row: the same answer after a retry is another entry, not the first one again", async () => {
    const keys = createQueueKeys(redis.prefix());
    const log = createAuditLog(handle.client, keys);
    const store = createBatchStore(handle.client, keys, auditRowHooks(log, createBatchStore(handle.client, keys).unrecordedEnds, createSilentLogger()));
    const batchId = 'b00000000e7e7';
    await store.create({ id: batchId, source: 'm.csv', sha256: 'x', createdAt: new Date().toISOString(), total: 1, queued: 1, sim: true, target: 'sim', queueName: 'q' }, Date.now());
    const failed = (at: number) => ({ batchId, row: 1, line: 2, action: 'upgrade', outcome: 'failed' as const, email: 'nora@acme.example', status: 500, attempts: 3, finishedAt: new Date(at).toISOString() });
    const at = Date.now();
    expect(await store.recordOutcome(failed(at))).toBe(true);
    expect(await store.forgetOutcome(batchId, 1, { outcome: 'failed', finishedAt: (await store.getOutcome(batchId, 1))?.finishedAt ?? '' })).toBe(true);
    expect(await store.recordOutcome(failed(at + 60_000))).toBe(true);
    expect(await store.forgetOutcome(batchId, 1, { outcome: 'failed', finishedAt: (await store.getOutcome(batchId, 1))?.finishedAt ?? '' })).toBe(true);
    expect(await store.recordOutcome({ ...failed(at + 120_000), outcome: 'succeeded', attempts: 1 })).toBe(true);
    const entries = (await collect(log.entries())).map(({ raw }) => JSON.parse(raw) as { event: string; subject: string; data: { outcome: string; finishedAt: string } }).filter((entry) => entry.event === 'row.applied' && entry.subject === batchId);
    expect(entries.map((entry) => [entry.data.outcome, entry.data.finishedAt])).toEqual([
      ['failed', failed(at).finishedAt],
      ['failed', failed(at + 60_000).finishedAt],
      ['succeeded', failed(at + 120_000).finishedAt],
    ]);
    expect(await appendMissingRowEntries({ audit: log, store, clock, graceMs: 0 })).toBe(0);
  });
});
