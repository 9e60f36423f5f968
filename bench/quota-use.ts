// Quota use: deactivate batches against a reference server that meters the admin token with a leaky bucket, each
// run side by side with a loop over the official Smartsheet JS SDK (look up by e-mail, then deactivate; SDK retries on).
// Time is compressed: every rate of the table runs K times faster (300/60 becomes 300/(60/K)), so a bucket still holds
// one window's worth and the shape of each run is that of the real service, in a K-th of the time.
// Run: bin/seatflow-dev bench/quota-use.ts [K=20] [ROW-NAMES...] [--installed]
//   row names: 50 300 2000 10000 wrong small fleet, and 1200 (issue 19: 2,000 rows, a bucket of 1,200 refilled at
//   1,200 a minute: start-up and pre-flight must fit in the 5% margin; run it with K=1, in real time, and --installed).
//   --installed: `seatflow run` of the installed package (bench/installed-package.ts), not the checkout's bin/seatflow.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { openBatchBench } from './batch-bench.js';
import { installPackage } from './installed-package.js';
import { seatflowEnv } from './seatflow-env.js';

const args = process.argv.slice(2).filter((arg) => arg !== '--installed');
const K = Number(args[0] ?? 20);
const only = args.slice(1);
const WINDOW_S = 60 / K;
const HEADROOM = 0.005;
/** Rows in flight per process: a full bucket is spent as fast as the workers go, so more than the default 8. */
const CONCURRENCY = 32;

interface Row {
  name: string;
  rows: number;
  /** The service: refill per window and bucket, in calls. */
  service: { requests: number; bucket: number };
  /** What seatflow is told: requests per window (its bucket is `auto`, one window's worth). */
  told: number;
  workers: number;
  truth: boolean;
  /** The goal, from the floor; default floor +5% (+15% when seatflow is told wrong) +1 s of start-up. */
  goal?: (floor: number) => number;
  /** Also time the official SDK's loop (default true). */
  sdk?: boolean;
  /** seatflow's rateLimit.headroom for this row; default HEADROOM (the configured default, 0.5%). */
  headroom?: number;
}

const table: Row[] = [
  { name: '50', rows: 50, service: { requests: 300, bucket: 300 }, told: 300, workers: 0, truth: true },
  { name: '300', rows: 300, service: { requests: 300, bucket: 300 }, told: 300, workers: 0, truth: true },
  { name: '2000', rows: 2000, service: { requests: 300, bucket: 300 }, told: 300, workers: 0, truth: true },
  { name: '10000', rows: 10_000, service: { requests: 300, bucket: 300 }, told: 300, workers: 0, truth: true },
  { name: 'wrong', rows: 2000, service: { requests: 300, bucket: 300 }, told: 600, workers: 0, truth: false },
  { name: 'small', rows: 2000, service: { requests: 300, bucket: 50 }, told: 300, workers: 0, truth: false },
  { name: 'fleet', rows: 2000, service: { requests: 300, bucket: 300 }, told: 300, workers: 4, truth: true },
  // Issue 19: start-up and pre-flight included, within 1/0.95 of the floor, no allowance for start-up.
  { name: '1200', rows: 2000, service: { requests: 1200, bucket: 1200 }, told: 1200, workers: 0, truth: true, goal: (floor: number) => floor / 0.95, sdk: false },
  // The same with the default of before, 2%: it keeps 24 calls of this bucket unused and refills 2% slower.
  { name: '1200-2pct', rows: 2000, service: { requests: 1200, bucket: 1200 }, told: 1200, workers: 0, truth: true, goal: (floor: number) => floor / 0.95, sdk: false, headroom: 0.02 },
].filter((row) => only.length === 0 || only.includes(row.name));

const root = path.resolve(import.meta.dirname, '..');
const installed = process.argv.includes('--installed') ? await installPackage() : undefined;
const seatflowBin = installed?.bin ?? path.join(root, 'bin/seatflow');
const require = createRequire(import.meta.url);
const smartsheet = require('smartsheet') as { createClient(options: Record<string, unknown>): any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `seatflow run` as a person starts it, against this server and Redis; resolves with its exit code. */
async function seatflowRun(env: NodeJS.ProcessEnv, manifest: string, config: string): Promise<number> {
  const child = spawn(process.execPath, [seatflowBin, 'run', manifest, '--yes', '--config', config], { cwd: root, env: seatflowEnv(env.SEATFLOW_HOME!, env), stdio: ['ignore', 'ignore', 'inherit'] });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code ?? -1;
}

async function sdkLoop(url: string, token: string, emails: string[]): Promise<{ seconds: number; retries: number; failed: number }> {
  let retries = 0;
  const sdk = smartsheet.createClient({
    accessToken: token,
    baseUrl: `${url}/`,
    logLevel: 'error',
    maxRetryDurationSeconds: 120,
    // The SDK's default backoff ((2^n + random) s), counted.
    calcRetryBackoff: (numRetry: number) => {
      retries += 1;
      return (2 ** numRetry + Math.random()) * 1000;
    },
  });
  const started = Date.now();
  let failed = 0;
  for (const email of emails) {
    try {
      const page = await sdk.users.listAllUsers({ queryParameters: { email } });
      const userId = page.data[0]?.id;
      if (userId !== undefined) await sdk.users.deactivateUser({ userId });
    } catch {
      failed += 1;
    }
  }
  return { seconds: (Date.now() - started) / 1000, retries, failed };
}

const pct = (value: number, base: number) => (base === 0 ? 'n/a' : `${value >= base ? '+' : ''}${((100 * (value - base)) / base).toFixed(1)}%`);

console.log(`${installed === undefined ? 'bin/seatflow (checkout, tsx)' : `installed package ${installed.dir}`}; load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
console.log(`quota use: deactivate batches, every rate ${K}x faster (window ${WINDOW_S} s), seatflow headroom ${HEADROOM * 100}% and ${CONCURRENCY} rows at once per process, full buckets at the start of each run`);
console.log('row      rows   service            told     seatflow   floor    vs floor   goal     429s (share)    calls/row  SDK loop   SDK 429s  SDK/seatflow');
for (const row of table) {
  const rate = row.service.requests / WINDOW_S;
  const bench = await openBatchBench({
    rows: row.rows,
    users: Math.ceil(row.rows * 1.3) + 500,
    rateLimit: { requests: row.service.requests, perSeconds: WINDOW_S, bucket: row.service.bucket },
    rate: { requests: row.told, perSeconds: WINDOW_S, headroom: row.headroom ?? HEADROOM },
    name: 'quota',
  });
  const { server, token, emails, system, budget } = bench;
  const sim = (method: string, route: string) => fetch(`${server.origin}/_sim${route}`, { method, headers: { authorization: `Bearer ${token}` } });
  await sim('POST', '/reset');

  let seconds: number;
  let outcome: string;
  if (row.workers === 0) {
    const config = path.join(bench.dir, 'config.json');
    writeFileSync(config, JSON.stringify({ rateLimit: { requests: row.told, perSeconds: WINDOW_S, headroom: row.headroom ?? HEADROOM }, worker: { concurrency: CONCURRENCY } }));
    const env = { REDIS_URL: bench.redisUrl, SEATFLOW_QUEUE_PREFIX: bench.prefix, SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: token, SEATFLOW_HOME: bench.dir, SEATFLOW_LOG_LEVEL: 'error' };
    const started = Date.now();
    const code = await seatflowRun(env, bench.manifest, config);
    seconds = (Date.now() - started) / 1000;
    // Where the time went, from the server's log of changes: start-up and pre-flight until the first deactivation,
    // the rows until the last, and the summary, report and exit after it.
    const changed = ((await (await sim('GET', '/mutations?operation=deactivateUser')).json()) as { data: { at: string }[] }).data.map((m) => Date.parse(m.at));
    const [first, last] = [Math.min(...changed), Math.max(...changed)];
    outcome = `exit ${code}; start-up and pre-flight ${((first - started) / 1000).toFixed(2)} s, rows ${((last - first) / 1000).toFixed(2)} s, summary and exit ${((started + seconds * 1000 - last) / 1000).toFixed(2)} s`;
  } else {
    const workers: ChildProcess[] = [];
    for (let i = 0; i < row.workers; i += 1) {
      const child = bench.spawnWorker(CONCURRENCY);
      workers.push(child);
      await once(child.stdout!, 'data');
    }
    const started = Date.now();
    const { plan } = await bench.plan();
    const { batch } = await system.submit(plan);
    while ((await system.store.get(batch.id))?.state !== 'finished') await new Promise((r) => setTimeout(r, 50));
    seconds = (Date.now() - started) / 1000;
    for (const child of workers) child.kill('SIGTERM');
    await Promise.all(workers.map((child) => once(child, 'exit')));
    outcome = `${row.workers} worker processes (started before the clock)`;
  }
  const counters = await budget.counters();
  const learned = await budget.state();
  const deactivations = ((await (await sim('GET', '/mutations?operation=deactivateUser')).json()) as { totalCount: number }).totalCount;

  await sim('POST', '/reset');
  const sdk = row.sdk === false ? { seconds: Number.NaN, retries: 0, failed: 0 } : await sdkLoop(server.url, token, emails);
  await bench.close();

  const floor = Math.max(0, row.rows - row.service.bucket) / rate;
  const goal = row.goal?.(floor) ?? (row.truth ? floor * 1.05 : floor * 1.15) + 1;
  const share = (100 * counters.rateLimited) / Math.max(1, counters.calls);
  console.log(
    `${row.name.padEnd(8)} ${String(row.rows).padStart(6)}   ${`${row.service.requests}/${WINDOW_S}s:${row.service.bucket}`.padEnd(17)}  ${`${row.told}/${WINDOW_S}s`.padEnd(8)} ` +
      `${seconds.toFixed(2).padStart(7)} s ${floor.toFixed(1).padStart(6)} s  ${pct(seconds, floor).padStart(8)}  ${(seconds <= goal ? 'met' : 'MISSED').padEnd(7)}  ` +
      `${String(counters.rateLimited).padStart(4)} (${share.toFixed(2)}%)   ${(counters.calls / row.rows).toFixed(3).padStart(8)}  ${sdk.seconds.toFixed(1).padStart(7)} s  ${String(sdk.retries).padStart(7)}   ${(sdk.seconds / seconds).toFixed(2)}x`,
  );
  console.log(`         (${outcome}; learned bucket ${learned.capacity.toFixed(0)}, rate ${(learned.ratePerSecond * WINDOW_S).toFixed(0)}/${WINDOW_S}s; ${deactivations} deactivations on the server; SDK loop ${sdk.failed} rows failed; goal ${row.goal !== undefined ? 'floor / 0.95' : row.truth ? 'floor +5% +1 s start-up' : 'floor +15% +1 s start-up'} = ${goal.toFixed(2)} s; load average ${os.loadavg()[0]!.toFixed(2)})`);
}
await installed?.remove();
process.exit(0);
