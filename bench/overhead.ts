// Overhead: rows per second end to end with the reference server unthrottled, and a worker's memory over a large
// batch. Run: bin/seatflow-dev bench/overhead.ts [ROWS=100000] [CONCURRENCY=32]
// Memory: the worker process samples its own RSS every 500 ms; we print it at 10%, 50% and 100% of the batch and the
// peak, so growth with the batch shows as a rising series.
import { once } from 'node:events';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { OUTCOMES } from '../src/queue/row-outcome.js';
import { openBatchBench } from './batch-bench.js';

const ROWS = Number(process.argv[2] ?? 100_000);
const CONCURRENCY = Number(process.argv[3] ?? 32);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const bench = await openBatchBench({ rows: ROWS, users: Math.ceil(ROWS * 1.4) + 1000, rateLimit: 'off', rate: { requests: 1_000_000, perSeconds: 1, headroom: 0 }, name: 'overhead' });
const { system } = bench;

const worker = bench.spawnWorker(CONCURRENCY, '--report-rss');
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
const { plan } = await bench.plan();
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

await bench.close();
process.exit(0);
