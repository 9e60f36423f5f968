import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.js';
import { durationAtRate } from '../../src/plan/calls-at-rate.js';
import { createBatchStore } from '../../src/queue/batch-store.js';
import { createQueueKeys } from '../../src/queue/queue-keys.js';
import { openRedis } from '../../src/queue/redis/open-redis.js';
import { createScheduleBook } from '../../src/reconcile/schedule-book.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/start-reference-server.js';
import { startTestRedis } from '../helpers/redis-server.js';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

// Each test runs several commands, each a process of its own: a few seconds each on a loaded machine.
// The commands as a person runs them: bin/seatflow, a private redis-server under the data directory that every
// command of a test shares, and either --sim or a reference server that outlives the commands.
let dataDir: string;
let server: RunningReferenceServer;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'seatflow-reconcile-'));
  server = await startReferenceServer({ rateLimit: 'off' });
  env = { SEATFLOW_DATA_DIR: dataDir, SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: server.tokens.admin };
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const reportPath = (stdout: string) => /Plan report: (\S+\.csv)/.exec(stdout)?.[1];

describe('seatflow reconcile (CLI)', () => {
  it('plans the example policy against --sim: rule, seat before and after, verdict per user; changes nothing; the report names the policy hash', async () => {
    const { code, stdout } = await runSeatflow(['reconcile', 'jobs/examples/license-policy.json', '--sim'], { SEATFLOW_DATA_DIR: dataDir });
    expect(code).toBe(0);
    expect(stdout).toContain('SIMULATION');
    // marcus.chen is internal: GUEST is refused for him, as the service would (docs/service.md#downgrade-and-upgrade).
    expect(stdout).toMatch(/marcus\.chen@acme\.example\s+HR source of truth\s+MEMBER → GUEST\s+refused\s+\[guest-for-internal-user\]/);
    expect(stdout).toMatch(/^Seats: \d+ Members, \d+ Provisional Members, \d+ free seats; \d+ deactivated users hold no paid seat$/m);
    expect(stdout).toMatch(/casey\.nguyen@acme\.example\s+HR source of truth\s+CONTRIBUTOR → MEMBER\s+change/);
    expect(stdout).toMatch(/no login for 90 days\s+MEMBER → CONTRIBUTOR/);
    expect(stdout).toContain('Nothing was changed.');
    // Under the summary, as every plan says it: one call per seat to change, at the configured 300 per 60 s.
    const changes = Number(/^\d+ rows: (\d+) change, /m.exec(stdout)?.[1]);
    expect(changes).toBeGreaterThan(1);
    expect(stdout.split('\n').filter((line) => /^\d+ .* change$/.test(line))).toHaveLength(changes);
    expect(stdout).toMatch(new RegExp(`^\\d+ rows: .*\\nCalls to apply: about ${changes} \\(about ${durationAtRate(changes, { requests: 300, perSeconds: 60 })} at 300 calls per 60 s, the configured rate\\)$`, 'm'));
    const rows = parse(await readFile(reportPath(stdout)!), { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(3);
    expect(new Set(rows.map((row) => row.policySha256)).size).toBe(1);
    expect(rows[0]!.policySha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.find((row) => row.email === 'marcus.chen@acme.example')).toMatchObject({ rule: 'HR source of truth', seatBefore: 'MEMBER', seatAfter: 'GUEST', action: 'downgrade', verdict: 'refused', refusal: 'guest-for-internal-user' });
  });

  it('--apply over the policy limit changes nothing, says why and exits 2', async () => {
    const policy = path.join(dataDir, 'capped.json');
    await writeFile(policy, JSON.stringify({ rules: [{ when: { seat: 'MEMBER', lastLoginOlderThanDays: 90 }, then: { seat: 'CONTRIBUTOR' } }], limits: { maxChanges: 1 } }));
    const { code, stdout } = await runSeatflow(['reconcile', policy, '--apply'], env);
    expect(code).toBe(2);
    expect(stdout).toMatch(/Nothing was changed: \d+ seat changes, more than the policy's limits\.maxChanges \(1\)/);
    expect(server.context.mutations.list().filter((m) => /downgrade/i.test(m.operation))).toEqual([]);
  });

  it('--apply of a plan with nothing to change makes no batch', async () => {
    const policy = path.join(dataDir, 'nobody.json');
    await writeFile(policy, JSON.stringify({ rules: [{ when: { seat: 'MEMBER', lastLoginOlderThanDays: 100_000 }, then: { seat: 'CONTRIBUTOR' } }] }));
    const { code, stdout } = await runSeatflow(['reconcile', policy, '--apply'], env);
    expect(code).toBe(0);
    expect(stdout).toContain('No seat needs to change: no batch was made.');
    expect((await runSeatflow(['status'], env)).stdout).not.toContain('nobody.json');
  });

  it('says at schedule add and in schedule list when the guardrails will hold its runs, and takes limits of its own', async () => {
    const config = path.join(dataDir, 'tight.json');
    await writeFile(config, JSON.stringify({ guardrails: { destructiveMaxCount: 2 } }));
    const tight = { ...env, SEATFLOW_CONFIG: config };
    const held = await runSeatflow(['schedule', 'add', 'held-seats', 'jobs/examples/license-policy.json', '--cron', '0 6 * * 1', '--apply'], tight);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).toContain('Nobody can confirm a scheduled run: a run above guardrails.destructiveMaxCount (2) or guardrails.destructiveMaxShare (5.0%) is held and changes nothing');
    expect(held.stdout).toMatch(/A run now would plan \d+ seat change\(s\) and be HELD \(nothing changed\): \d+ destructive changes, more than guardrails\.destructiveMaxCount \(2\)/);
    const trusted = await runSeatflow(['schedule', 'add', 'trusted-seats', 'jobs/examples/license-policy.json', '--cron', '0 6 * * 2', '--apply', '--max-changes', '40', '--max-share', '0.2'], tight);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain("a run may change up to 40 seat change(s) and 20.0% of the plan's users without confirmation");
    expect(trusted.stdout).toMatch(/A run now would plan \d+ seat change\(s\): within the limits, it would be applied\./);
    const listed = await runSeatflow(['schedule', 'list'], tight);
    expect(listed.stdout).toMatch(/held-seats: [^\n]*\n {2}next run: [^\n]*\n {2}held when: a run above guardrails\.destructiveMaxCount \(2\)/);
    expect(listed.stdout).toMatch(/trusted-seats: [^\n]*\n {2}next run: [^\n]*\n {2}held when: a run may change up to 40 seat change\(s\)/);
    const refused = await runSeatflow(['schedule', 'add', 'dry', 'jobs/examples/license-policy.json', '--cron', '0 6 * * 3', '--max-changes', '5'], tight);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--max-changes and --max-share limit what a run applies: they need --apply');
    for (const name of ['held-seats', 'trusted-seats']) expect((await runSeatflow(['schedule', 'remove', name], tight)).code).toBe(0);
  });

  it('adds, lists, runs and removes a schedule', async () => {
    const added = await runSeatflow(['schedule', 'add', 'weekly-seats', 'jobs/examples/license-policy.json', '--cron', '0 6 * * 1', '--tz', 'Europe/Berlin', '--apply'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/Schedule weekly-seats: "0 6 \* \* 1" Europe\/Berlin, applies/);
    const ran = await runSeatflow(['schedule', 'run', 'weekly-seats'], env);
    expect(ran.code).toBe(0);
    const batchId = /Batch (b[0-9a-f]+): \d+ rows queued/.exec(ran.stdout)?.[1];
    expect(batchId).toBeDefined();
    const listed = await runSeatflow(['schedule', 'list'], env);
    expect(listed.stdout).toMatch(/next run: \d{4}-\d\d-\d\dT0[45]:00:00\.000Z/);
    expect(listed.stdout).toContain(`batch ${batchId} (queued;`);
    expect((await runSeatflow(['schedule', 'remove', 'weekly-seats'], env)).code).toBe(0);
    expect((await runSeatflow(['schedule', 'list'], env)).stdout).toContain('No schedules.');
    const missing = await runSeatflow(['schedule', 'remove', 'weekly-seats'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no schedule "weekly-seats"');
  }, 180_000);
});

describe('seatflow worker and serve --workers (CLI) and schedules', () => {
  it.each([[['worker']], [['serve', '--workers', '1', '--port', '0']]])('%j fires a schedule tick of its target: the run is recorded as the schedule\'s last run', async (command) => {
    const redis = await startTestRedis();
    const prefix = redis.prefix();
    const workerEnv = { ...env, REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: prefix };
    const worker = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), ...command, '--log-level', 'warn'], { cwd: ROOT, env: { ...process.env, ...workerEnv }, stdio: 'ignore' });
    const handle = await openRedis({ url: redis.url, dataDir, logger: createSilentLogger() });
    const book = createScheduleBook({ redis: handle, prefix, target: server.url, store: createBatchStore(handle.client, createQueueKeys(prefix)), logger: createSilentLogger() });
    try {
      // A tick every 3 seconds (cron with seconds), not a far one promoted by hand: a tick handed out before its time
      // on the shared clock waits for it.
      const added = await runSeatflow(['schedule', 'add', 'nightly-plan', 'jobs/examples/license-policy.json', '--cron', '*/3 * * * * *'], workerEnv);
      expect(added.code).toBe(0);
      const next = Date.parse((await book.get('nightly-plan'))!.next!);
      const deadline = Date.now() + 60_000;
      let lastRun;
      while ((lastRun = (await book.get('nightly-plan'))?.lastRun) === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(lastRun).toMatchObject({ applied: false });
      expect(Date.parse(lastRun!.tick)).toBeGreaterThanOrEqual(next);
      expect(Date.parse(lastRun!.tick) % 3000).toBe(0);
      expect(lastRun!.plan.change).toBeGreaterThan(0);
    } finally {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.once('exit', resolve));
      await book.close();
      await handle.close();
      await redis.stop();
    }
  }, 180_000);
});

describe('seatflow run of a finished manifest (CLI)', () => {
  it('says when it ran and how to run it again instead of a quiet exit 0; --again makes a new batch', async () => {
    const manifest = path.join(dataDir, 'again.csv');
    await writeFile(manifest, 'email,action\njordan.lee@acme.example,deactivate\n');
    const first = await runSeatflow(['run', manifest], env);
    expect(first.code).toBe(0);
    const firstBatch = /Batch (b[0-9a-f]+):/.exec(first.stdout)?.[1];
    const second = await runSeatflow(['run', manifest], env);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`already ran as batch ${firstBatch}`);
    expect(second.stderr).toContain(`seatflow run ${manifest} --again`);
    const third = await runSeatflow(['run', manifest, '--again'], env);
    expect(third.code).toBe(0);
    expect(third.stdout).not.toContain(firstBatch!);
    expect(third.stdout).toContain('1 row: 1 unchanged');
  }, 180_000);
});
