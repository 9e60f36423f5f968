import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-seatflow.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
let dataDir: string;
beforeAll(async () => {
  redis = await startTestRedis();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-worker-metrics-'));
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('seatflow worker --metrics-port', () => {
  it('serves Prometheus metrics of the worker on its own port until it stops', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'worker', '--sim', '--metrics-port', '0'], {
      cwd: ROOT,
      env: { ...process.env, REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: redis.prefix(), SEATFLOW_DATA_DIR: dataDir, SEATFLOW_LOG_LEVEL: 'warn', SMARTSHEET_ACCESS_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 30_000;
      let url: string | undefined;
      while (url === undefined && Date.now() < deadline && child.exitCode === null) {
        url = /seatflow metrics: (http:\/\/\S+\/metrics)/.exec(stderr)?.[1];
        if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(url, stderr).toBeDefined();
      const response = await fetch(url!);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await response.text();
      expect(text).toMatch(/seatflow_workers [1-9]/);
      expect(text).toContain('seatflow_budget_available_calls');
      expect(text).toContain('# TYPE seatflow_rows_finished_total counter');
      expect((await fetch(url!.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
