// Quota use: a 2,000-row deactivate batch on 4 worker processes against a reference server limited to Q calls per
// minute, versus the same batch as a loop over the official Smartsheet JS SDK (look up by e-mail, then deactivate).
// Run: bin/seatflow-dev bench/quota-use.ts [ROWS=2000] [Q=3000]
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createSmartsheetClient } from '../src/client/create-smartsheet-client.js';
import { createSilentLogger } from '../src/core/logger.js';
import { planManifest } from '../src/plan/plan-manifest.js';
import { createBatchSystem } from '../src/queue/batch-system.js';
import { openRedis } from '../src/queue/redis/open-redis.js';
import { startReferenceServer } from '../src/server/index.js';
import { startTestRedis } from '../test/helpers/redis-server.js';

const ROWS = Number(process.argv[2] ?? 2000);
const Q = Number(process.argv[3] ?? 3000);
const PER_SECONDS = 60;
const HEADROOM = 0.02;
const WORKERS = 4;

const redis = await startTestRedis();
const server = await startReferenceServer({ users: Math.max(6000, ROWS * 3), rateLimit: { requests: Q, perSeconds: PER_SECONDS } });
const token = server.tokens.admin;
const sim = (method: string, route: string, body?: unknown) =>
  fetch(`${server.origin}/_sim${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

function pickEmails(): string[] {
  const out: string[] = [];
  for (const user of server.context.state.users.values()) {
    if (user.status === 'ACTIVE' && user.inOrg && !user.externallyManaged && !user.admin && /\.\d+@acme\.example$/.test(user.email)) out.push(user.email);
    if (out.length === ROWS) return out;
  }
  throw new Error(`only ${out.length} deactivatable users`);
}

/** Empties the token's bucket so that a run starts in steady state (as a token already in use), not on a full burst. */
async function drainBucket(): Promise<void> {
  await sim('DELETE', '/rate-limit/buckets');
  let left = Q;
  const drain = async () => {
    while (left > 0) {
      left -= 1;
      await fetch(`${server.url}/users/me`, { headers: { authorization: `Bearer ${token}` } });
    }
  };
  await Promise.all(Array.from({ length: 16 }, drain));
}

const emails = pickEmails();
const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-quota-'));
const manifest = path.join(dir, 'deactivate.csv');
writeFileSync(manifest, `email,action\n${emails.map((e) => `${e},deactivate`).join('\n')}\n`);
const idealSeconds = (calls: number) => (calls * PER_SECONDS) / Q;

// --- seatflow ---
await drainBucket();
await sim('DELETE', '/mutations');
const logger = createSilentLogger();
const prefix = redis.prefix();
const handle = await openRedis({ url: redis.url, dataDir: dir, logger });
const system = createBatchSystem({ redis: handle, prefix, target: server.url, sim: true, logger });
const budget = system.budget({ accessToken: token, rate: { requests: Q, perSeconds: PER_SECONDS, headroom: HEADROOM } });
const api = createSmartsheetClient({ baseUrl: server.url, accessToken: token, beforeRequest: (i) => budget.beforeRequest(i), onResponse: (i) => void budget.onResponse(i) });
const workers: ChildProcess[] = [];
for (let i = 0; i < WORKERS; i += 1) {
  const child = spawn(process.execPath, ['bin/seatflow-dev', 'bench/quota-worker.ts', redis.url, prefix, server.url, token, String(Q), String(PER_SECONDS), String(HEADROOM), '8'], { stdio: ['ignore', 'pipe', 'inherit'] });
  workers.push(child);
  await once(child.stdout!, 'data');
}
const started = Date.now();
const { plan } = await planManifest({ path: manifest, api, guardrails: { destructiveMaxCount: 1e9, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e9 } });
const { batch } = await system.submit(plan);
for (;;) {
  const current = await system.store.get(batch.id);
  if (current?.state === 'finished') break;
  await new Promise((r) => setTimeout(r, 100));
}
const seatflowSeconds = (Date.now() - started) / 1000;
const final = (await system.store.get(batch.id))!;
const counters = await budget.counters();
for (const child of workers) child.kill('SIGTERM');
await Promise.all(workers.map((child) => once(child, 'exit')));
const mutations = (await (await sim('GET', '/mutations?operation=deactivateUser')).json()) as { totalCount: number };

// --- the official SDK, as a person would loop over it ---
await sim('POST', '/reset');
await drainBucket();
const require = createRequire(import.meta.url);
const smartsheet = require('smartsheet') as { createClient(options: Record<string, unknown>): any }; // eslint-disable-line @typescript-eslint/no-explicit-any
let sdkRetries = 0;
const sdk = smartsheet.createClient({
  accessToken: token,
  baseUrl: `${server.url}/`,
  logLevel: 'error',
  maxRetryDurationSeconds: 120,
  // The SDK's default backoff ((2^n + random) s), counted.
  calcRetryBackoff: (numRetry: number) => {
    sdkRetries += 1;
    return (2 ** numRetry + Math.random()) * 1000;
  },
});
const sdkStarted = Date.now();
let sdkFailed = 0;
for (const email of emails) {
  try {
    const page = await sdk.users.listAllUsers({ queryParameters: { email } });
    const userId = page.data[0]?.id;
    if (userId !== undefined) await sdk.users.deactivateUser({ userId });
  } catch {
    sdkFailed += 1;
  }
}
const sdkSeconds = (Date.now() - sdkStarted) / 1000;

const rows = final.total;
console.log(`quota use: ${rows} deactivate rows, server limited to ${Q} calls / ${PER_SECONDS} s, budget headroom ${HEADROOM * 100}%, buckets drained before each run`);
console.log(`seatflow (${WORKERS} worker processes x 8): ${seatflowSeconds.toFixed(1)} s (plan + submit + execute)`);
console.log(`  calls: ${counters.calls} (${plan.apiCalls} pre-flight + ${counters.calls - plan.apiCalls} by workers) = ${(counters.calls / rows).toFixed(3)} per row`);
console.log(`  ideal (calls / Q): ${idealSeconds(counters.calls).toFixed(1)} s -> ${((100 * seatflowSeconds) / idealSeconds(counters.calls) - 100).toFixed(1)}% over ideal`);
console.log(`  429 answers: ${counters.rateLimited} (${((100 * counters.rateLimited) / Math.max(1, counters.calls)).toFixed(2)}% of calls)`);
console.log(`  outcomes: ${JSON.stringify(final.counts)}; server deactivations: ${mutations.totalCount}`);
console.log(`official SDK loop (lookup + deactivate, SDK retries on): ${sdkSeconds.toFixed(1)} s, ${sdkRetries} retries (429s), ${sdkFailed} rows failed`);
console.log(`  ideal for its ${rows * 2} calls: ${idealSeconds(rows * 2).toFixed(1)} s`);
console.log(`ratio SDK loop / seatflow: ${(sdkSeconds / seatflowSeconds).toFixed(2)}x`);

await system.close();
await handle.close();
await api.close();
await server.close();
await redis.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
