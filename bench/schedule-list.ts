// What the dashboard's schedules page costs per render: `listSchedules` (opens and closes a BullMQ Queue each time)
// against one long-lived schedule book (what `seatflow serve` keeps). Prints time per call and connections opened.
// Run: bin/seatflow-dev bench/schedule-list.ts [SCHEDULES=10] [CALLS=200]
import { Redis } from 'ioredis';
import { createSilentLogger } from '../src/core/logger.js';
import { createBatchStore } from '../src/queue/batch-store.js';
import { createQueueKeys } from '../src/queue/queue-keys.js';
import { openRedis } from '../src/queue/redis/open-redis.js';
import { createScheduleBook, listSchedules } from '../src/reconcile/schedule-book.js';
import { startTestRedis } from '../test/helpers/redis-server.js';

const SCHEDULES = Number(process.argv[2] ?? 10);
const CALLS = Number(process.argv[3] ?? 200);

const redis = await startTestRedis();
const handle = await openRedis({ url: redis.url, dataDir: redis.dir, logger: createSilentLogger() });
const prefix = redis.prefix();
const options = { redis: handle, prefix, target: 'https://api.example/2.0', store: createBatchStore(handle.client, createQueueKeys(prefix)), logger: createSilentLogger() };
const book = createScheduleBook(options);
for (let i = 0; i < SCHEDULES; i += 1) await book.add({ name: `s${i}`, policyPath: `/policies/p${i}.json`, apply: i % 2 === 0, cron: `${i} 6 * * 1`, tz: 'Europe/Berlin' });
const probe = new Redis(redis.url);
const connectionsSoFar = async () => Number(/total_connections_received:(\d+)/.exec(await probe.info('stats'))?.[1] ?? 0);

async function measure(name: string, list: () => Promise<unknown[]>): Promise<void> {
  await list(); // warm: scripts loaded, connection open
  const before = await connectionsSoFar();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const started = performance.now();
    const views = await list();
    times.push(performance.now() - started);
    if (views.length !== SCHEDULES) throw new Error(`listed ${views.length} schedules, not ${SCHEDULES}`);
  }
  const opened = (await connectionsSoFar()) - before;
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  console.log(`  ${name}: mean ${mean.toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)]!.toFixed(2)} ms, ${(opened / CALLS).toFixed(1)} Redis connections opened per call`);
}

console.log(`schedule list: ${SCHEDULES} schedules, ${CALLS} calls each, one local redis-server`);
await measure('listSchedules (own Queue per call)', () => listSchedules(options));
await measure('long-lived book.list()', () => book.list());
await book.close();
probe.disconnect();
await handle.close();
await redis.stop();
