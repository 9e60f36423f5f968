import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createBatchHarness, type BatchHarness } from '../helpers/batch-harness.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { ROOT } from '../helpers/run-seatflow.js';

/** Short bounds, so that a test sees the warning and the give-up in seconds (defaults: 5 s and 60 s). */
const BOUNDS = { redis: { warnAfterMs: 1000, giveUpAfterMs: 4000 } };

interface Running {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

let redis: TestRedis | undefined;
let harness: BatchHarness | undefined;
const children: ChildProcess[] = [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-redis-stops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  redis?.signal('SIGCONT');
  await harness?.close();
  await redis?.stop();
  harness = undefined;
  redis = undefined;
});

function seatflow(args: string[], env: NodeJS.ProcessEnv): Running {
  const config = path.join(dir, 'bounds.json');
  writeFileSync(config, JSON.stringify(BOUNDS));
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), ...args, '--config', config], {
    cwd: ROOT,
    env: { ...process.env, SEATFLOW_LOG_LEVEL: 'info', SEATFLOW_DATA_DIR: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, output: () => stdout + stderr, exited };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not seen in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True once a client other than `self` ran a Lua script on this Redis (the command is using it, past its start). */
async function someoneRanAScript(self: Redis): Promise<boolean> {
  const clients = String(await self.client('LIST')).split('\n');
  const mine = String(await self.client('ID'));
  return clients.some((line) => !line.startsWith(`id=${mine} `) && /cmd=(evalsha|eval)\b/.test(line));
}

async function openHarness(faults?: string): Promise<BatchHarness> {
  redis = await startTestRedis();
  harness = await createBatchHarness(redis, { rateLimit: 'off', ...(faults === undefined ? {} : { faults }) });
  return harness;
}

function envFor(h: BatchHarness): NodeJS.ProcessEnv {
  return { REDIS_URL: redis!.url, SEATFLOW_QUEUE_PREFIX: h.prefix, SMARTSHEET_API_BASE: h.server.url, SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin };
}

function expectGaveUp(result: { code: number | null; stderr: string }): void {
  expect(result.stderr).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/? has not answered for 1 s; waiting \(this command gives up after 4 s: redis\.giveUpAfterMs\)/);
  expect(result.stderr).toMatch(/seatflow: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/?: no answer for \d+ s after it had connected \(redis\.giveUpAfterMs\)/);
  expect(result.stderr).toMatch(/not stopped or overloaded/);
  expect(result.code).toBe(3);
}

describe('a Redis that stops answering after a command connected', () => {
  it('makes `seatflow submit` warn, then exit 3 past redis.giveUpAfterMs, instead of waiting without bound', async () => {
    // Every call to the service takes 2 s, so the pre-flight is still running when Redis is stopped.
    const h = await openHarness('delay:2000ms:1');
    const emails = await h.deactivatableEmails(3);
    const manifest = h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)]);
    const probe = new Redis(redis!.url);
    try {
      const submit = seatflow(['submit', manifest], envFor(h));
      await waitFor(() => someoneRanAScript(probe), 'submit spending its request budget in Redis');
      const stoppedAt = Date.now();
      redis!.signal('SIGSTOP');
      const result = await submit.exited;
      expectGaveUp(result);
      // The bound is 4 s; the rest is slack for a loaded machine, far below "without bound".
      expect(Date.now() - stoppedAt).toBeLessThan(30_000);
    } finally {
      probe.disconnect();
    }
  });

  it('makes `seatflow run` exit 3 mid-batch; the rows stay queued and a worker finishes them once Redis is back', async () => {
    const h = await openHarness('delay:1500ms:1');
    const emails = await h.deactivatableEmails(6);
    const manifest = h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)]);
    const run = seatflow(['run', manifest, '--concurrency', '1'], envFor(h));
    await waitFor(() => /rows queued/.test(run.output()), 'the batch queued');
    redis!.signal('SIGSTOP');
    const result = await run.exited;
    expectGaveUp(result);
    redis!.signal('SIGCONT');
    const batchId = /Batch (b[0-9a-f]+): \d+ rows queued/.exec(result.stdout)![1]!;
    h.startWorkers({ concurrency: 4 });
    const done = await h.waitForState(batchId, ['finished'], 90_000);
    expect(done.counts).toMatchObject({ succeeded: 6, failed: 0, unknown: 0 });
  }, 180_000);

  it('makes `seatflow status --watch` exit 3 when Redis is killed while it watches', async () => {
    const h = await openHarness('delay:1000ms:1');
    const emails = await h.deactivatableEmails(2);
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)])));
    // No worker runs: the batch stays queued and the watch goes on until Redis dies.
    const watch = seatflow(['status', batch.id, '--watch'], envFor(h));
    await waitFor(() => watch.output().includes(`Watching ${batch.id}`), 'the watch started');
    redis!.signal('SIGKILL');
    expectGaveUp(await watch.exited);
    // Back on the same port and data, so that the harness closes.
    await redis!.restart();
  }, 120_000);

  it('makes a running `seatflow worker` say it waits, then that Redis answers again, and go on working', async () => {
    const h = await openHarness();
    const worker = seatflow(['worker'], envFor(h));
    await waitFor(() => worker.output().includes('worker started'), 'the worker started');
    redis!.signal('SIGSTOP');
    await waitFor(() => /has not answered for \d+ s; waiting"/.test(worker.output()), 'the worker saying it waits');
    expect(worker.output()).not.toMatch(/gives up/);
    redis!.signal('SIGCONT');
    await waitFor(() => /answers again, after \d+ s; going on/.test(worker.output()), 'the worker saying Redis is back');
    const emails = await h.deactivatableEmails(2);
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)])));
    expect((await h.waitForState(batch.id, ['finished'])).counts.succeeded).toBe(2);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  }, 120_000);
});
