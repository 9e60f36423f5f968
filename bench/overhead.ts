// Overhead: rows per second end to end with the reference server unthrottled, and a worker's memory over a large
// batch. Run: bin/seatflow-dev bench/overhead.ts [ROWS=100000] [CONCURRENCY=32]
// Memory: the worker process samples its own RSS every 500 ms; we print it at 10%, 50% and 100% of the batch and the
// peak, so growth with the batch shows as a rising series.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createSmartsheetClient } from '../src/client/create-smartsheet-client.js';
import { createSilentLogger } from '../src/core/logger.js';
import { planManifest } from '../src/plan/plan-manifest.js';
import { createBatchSystem } from '../src/queue/batch-system.js';
import { openRedis } from '../src/queue/redis/open-redis.js';
import { OUTCOMES } from '../src/queue/row-outcome.js';
import { startReferenceServer } from '../src/server/index.js';
import { startTestRedis } from '../test/helpers/redis-server.js';

const ROWS = Number(process.argv[2] ?? 100_000);
const CONCURRENCY = Number(process.argv[3] ?? 32);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const redis = await startTestRedis();
const server = await startReferenceServer({ users: Math.ceil(ROWS * 1.4) + 1000, rateLimit: 'off' });
const token = server.tokens.admin;
const emails: string[] = [];
for (const user of server.context.state.users.values()) {
  if (emails.length === ROWS) break;
  if (user.status === 'ACTIVE' && user.inOrg && !user.externallyManaged && !user.admin && /\.\d+@acme\.example$/.test(user.email)) emails.push(user.email);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-overhead-'));
const manifest = path.join(dir, 'deactivate.csv');
writeFileSync(manifest, `email,action\n${emails.map((e) => `${e},deactivate`).join('\n')}\n`);

const logger = createSilentLogger();
const prefix = redis.prefix();
const handle = await openRedis({ url: redis.url, dataDir: dir, logger });
const system = createBatchSystem({ redis: handle, prefix, target: server.url, sim: true, logger });
const rate = { requests: 1_000_000, perSeconds: 1, headroom: 0 };
const budget = system.budget({ accessToken: token, rate });
const api = createSmartsheetClient({ baseUrl: server.url, accessToken: token, beforeRequest: (i) => budget.beforeRequest(i) });

const worker = spawn(process.execPath, ['bin/seatflow-dev', 'bench/quota-worker.ts', redis.url, prefix, server.url, token, String(rate.requests), String(rate.perSeconds), '0', String(CONCURRENCY), '--report-rss'], { stdio: ['ignore', 'pipe', 'inherit'] });
let latestRss = 0;
let peakRss = 0;
const lines = createInterface({ input: worker.stdout! });
const ready = new Promise<void>((resolve) =>
  lines.on('line', (line) => {
    if (line === 'ready') return resolve();
    try {
      const { rss, peakRss: peak } = JSON.parse(line) as { rss?: number; peakRss?: number };
      if (rss !== undefined) latestRss = rss;
      peakRss = Math.max(peakRss, rss ?? 0, peak ?? 0);
    } catch {
      // not a sample
    }
  }),
);
await ready;

const planStarted = Date.now();
const { plan } = await planManifest({ path: manifest, api, guardrails: { destructiveMaxCount: 1e9, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e9 } });
const planSeconds = (Date.now() - planStarted) / 1000;
const submitStarted = Date.now();
const { batch } = await system.submit(plan);
const submitSeconds = (Date.now() - submitStarted) / 1000;
const samples: string[] = [];
const marks = [0.1, 0.5];
for (;;) {
  const current = (await system.store.get(batch.id))!;
  const done = OUTCOMES.reduce((sum, o) => sum + current.counts[o], 0);
  while (marks.length > 0 && done >= current.total * marks[0]!) samples.push(`${Math.round(marks.shift()! * 100)}%: ${mb(latestRss)}`);
  if (current.state === 'finished') break;
  await new Promise((r) => setTimeout(r, 200));
}
const seconds = (Date.now() - submitStarted) / 1000;
samples.push(`100%: ${mb(latestRss)}`);
const final = (await system.store.get(batch.id))!;
worker.kill('SIGTERM');
await once(worker, 'exit');

console.log(`overhead: ${final.total} deactivate rows, reference server unthrottled, 1 worker process (concurrency ${CONCURRENCY}), ${os.cpus().length} cores`);
console.log(`  pre-flight: ${planSeconds.toFixed(1)} s (${plan.apiCalls} calls); submit: ${submitSeconds.toFixed(1)} s`);
console.log(`  submit + execute: ${seconds.toFixed(1)} s = ${(final.total / seconds).toFixed(0)} rows/s end to end; with pre-flight ${(final.total / (seconds + planSeconds)).toFixed(0)} rows/s`);
console.log(`  worker RSS ${samples.join(', ')}; peak ${mb(peakRss)}`);
console.log(`  outcomes: ${JSON.stringify(final.counts)}`);

await system.close();
await handle.close();
await api.close();
await server.close();
await redis.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
