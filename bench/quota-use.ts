// Quota use: a 2,000-row deactivate batch on 4 worker processes against a reference server limited to Q calls per
// minute, versus the same batch as a loop over the official Smartsheet JS SDK (look up by e-mail, then deactivate).
// Run: bin/seatflow-dev bench/quota-use.ts [ROWS=2000] [Q=3000]
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { openBatchBench } from './batch-bench.js';

const ROWS = Number(process.argv[2] ?? 2000);
const Q = Number(process.argv[3] ?? 3000);
const PER_SECONDS = 60;
const HEADROOM = 0.02;
const WORKERS = 4;

const bench = await openBatchBench({
  rows: ROWS,
  users: Math.max(6000, ROWS * 3),
  rateLimit: { requests: Q, perSeconds: PER_SECONDS },
  rate: { requests: Q, perSeconds: PER_SECONDS, headroom: HEADROOM },
  name: 'quota',
});
const { server, token, emails, system, budget } = bench;
const sim = (method: string, route: string, body?: unknown) =>
  fetch(`${server.origin}/_sim${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

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

const idealSeconds = (calls: number) => (calls * PER_SECONDS) / Q;

// --- seatflow ---
await drainBucket();
await sim('DELETE', '/mutations');
const workers: ChildProcess[] = [];
for (let i = 0; i < WORKERS; i += 1) {
  const child = bench.spawnWorker(8);
  workers.push(child);
  await once(child.stdout!, 'data');
}
const started = Date.now();
const { plan } = await bench.plan();
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

await bench.close();
process.exit(0);
