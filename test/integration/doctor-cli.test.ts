import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorCheck } from '../../src/cli/doctor/doctor-check.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/start-reference-server.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

interface DoctorReport {
  exitCode: number;
  checks: DoctorCheck[];
}

let server: RunningReferenceServer;
let durable: TestRedis;
let volatile: TestRedis;
let work: string;
beforeAll(async () => {
  [server, durable, volatile] = await Promise.all([startReferenceServer(), startTestRedis(), startTestRedis({ volatile: true })]);
  work = await mkdtemp(path.join(tmpdir(), 'seatflow-doctor-'));
});
afterAll(async () => {
  await Promise.all([server.close(), durable.stop(), volatile.stop(), rm(work, { recursive: true, force: true })]);
});

const envOf = (redis: TestRedis, prefix: string, token = server.tokens.admin) => ({ REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: prefix, SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: token, SEATFLOW_HOME: work });

async function doctor(env: NodeJS.ProcessEnv, node: string[] = []): Promise<DoctorReport & { code: number }> {
  const run = node.length === 0 ? await runSeatflow(['doctor', '--json'], env) : await runWithNodeFlags(node, ['doctor', '--json'], env);
  const report = JSON.parse(run.stdout) as DoctorReport;
  return { ...report, code: run.code };
}

const check = (report: DoctorReport, name: string) => report.checks.find((one) => one.name === name);

/** bin/seatflow with node flags first (a clock moved forward for this process only). */
async function runWithNodeFlags(node: string[], args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  const child = spawn(process.execPath, [...node, path.join(ROOT, 'bin/seatflow'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout };
}

async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const worker = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'worker', '--log-format', 'json'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    worker.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('worker started')) resolve();
    });
    worker.once('exit', (code) => reject(new Error(`worker exited ${code}: ${seen}`)));
  });
  return worker;
}

describe('seatflow doctor', { timeout: 120_000 }, () => {
  it('says OK to a System Admin token, a target in step with our clock, a durable Redis and a live worker; exit 0', async () => {
    const env = envOf(durable, durable.prefix());
    const worker = await startWorker(env);
    try {
      const report = await doctor(env);
      expect(report.code).toBe(0);
      expect(check(report, 'token')).toMatchObject({ status: 'OK', details: { admin: true, organization: 'Acme Corp' } });
      expect(check(report, 'target')?.status).toBe('OK');
      expect(check(report, 'redis')).toMatchObject({ status: 'OK', details: { aof: true } });
      expect(check(report, 'workers')).toMatchObject({ status: 'OK', details: { rows: 1, steps: 1, schedules: 1 } });
      expect(check(report, 'steps')?.status).toBe('OK');
    } finally {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
    }
  });

  it('fails a token the service refuses, or one that is not a System Admin’s, with exit 2', async () => {
    const refused = await doctor(envOf(durable, durable.prefix(), 'not-a-token'));
    expect(refused.code).toBe(2);
    expect(check(refused, 'token')).toMatchObject({ status: 'FAIL', exitCode: 2 });
    const notAdmin = await doctor(envOf(durable, durable.prefix(), server.tokens.user));
    expect(notAdmin.code).toBe(2);
    expect(check(notAdmin, 'token')?.message).toMatch(/not a System Admin/);
  });

  it('exits 3 when Redis cannot be reached, and still checks the token', async () => {
    const report = await doctor({ ...envOf(durable, 'x'), REDIS_URL: 'redis://127.0.0.1:1' });
    expect(report.code).toBe(3);
    expect(check(report, 'redis')).toMatchObject({ status: 'FAIL', exitCode: 3 });
    expect(check(report, 'token')?.status).toBe('OK');
  });

  it('names offboarding steps due and not taken when no worker runs (exit 1)', async () => {
    const env = envOf(durable, durable.prefix());
    const leavers = path.join(work, 'leavers.csv');
    await writeFile(leavers, 'email\nmarcus.chen@acme.example\n');
    const queued = await runSeatflow(['offboard', leavers, '--no-wait', '--yes'], env);
    expect(queued.code, queued.stderr).toBe(0);
    // The step is due now: seen from two minutes later, it is overdue.
    const shift = `const now = Date.now; Date.now = () => now() + 120000;`;
    const report = await doctor(env, ['--import', `data:text/javascript,${encodeURIComponent(shift)}`]);
    expect(report.code).toBe(1);
    expect(check(report, 'steps')).toMatchObject({ status: 'FAIL', details: { overdue: 1 } });
    expect(check(report, 'steps')?.message).toContain('deactivate');
    expect(check(report, 'workers')?.status).toBe('WARN');
  });
});

describe('a Redis that keeps nothing on disk', { timeout: 120_000 }, () => {
  it('is refused by offboard and schedule add unless --allow-volatile-redis, and doctor says what would be lost', async () => {
    const env = envOf(volatile, volatile.prefix());
    const leavers = path.join(work, 'volatile-leavers.csv');
    await writeFile(leavers, 'email\npriya.shah@acme.example\n');
    const offboard = await runSeatflow(['offboard', leavers, '--no-wait', '--yes'], env);
    expect(offboard.code).toBe(2);
    expect(offboard.stderr).toContain('keeps nothing on disk');
    expect(offboard.stderr).toContain('--allow-volatile-redis');
    expect(offboard.stdout).not.toContain('queued');

    const before = await doctor(env);
    expect(check(before, 'redis')).toMatchObject({ status: 'WARN', details: { aof: false, rdb: false } });

    const policy = path.join(ROOT, 'jobs/examples/license-policy.json');
    expect((await runSeatflow(['schedule', 'add', 'weekly', policy, '--cron', '0 6 * * 1'], env)).code).toBe(2);
    const added = await runSeatflow(['schedule', 'add', 'weekly', policy, '--cron', '0 6 * * 1', '--allow-volatile-redis'], env);
    expect(added.code, added.stderr).toBe(0);

    const after = await doctor(env);
    expect(after.code).toBe(1);
    expect(check(after, 'redis')?.message).toContain('1 schedule would be lost');
    expect(check(after, 'schedules')).toMatchObject({ status: 'WARN' });
    expect(check(after, 'schedules')?.message).toContain('weekly next');
  });
});
