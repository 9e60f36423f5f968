// One worker process of bench/quota-use.ts and bench/overhead.ts (spawned by bench/batch-bench.ts): the same pieces as
// `seatflow worker`, configured by arguments.
// bin/seatflow-dev bench/quota-worker.ts REDIS_URL PREFIX API_BASE TOKEN REQUESTS PER_SECONDS HEADROOM CONCURRENCY [BURST] [--count-commands]
import { Redis } from 'ioredis';
import { createJobRegistry } from '../jobs/registry.js';
import { longestRequestMs } from '../src/client/longest-request-ms.js';
import { createSmartsheetClient } from '../src/client/create-smartsheet-client.js';
import { createSilentLogger } from '../src/core/logger.js';
import { createBatchSystem } from '../src/queue/batch-system.js';
import { openRedis } from '../src/queue/redis/open-redis.js';

const [redisUrl, prefix, apiBase, token, requests, perSeconds, headroom, concurrency, burst] = process.argv.slice(2) as string[];
const logger = createSilentLogger();
const redis = await openRedis({ url: redisUrl, dataDir: '.', logger });
const system = createBatchSystem({ redis, prefix: prefix!, target: apiBase!, sim: true, logger });
const budget = system.budget({ accessToken: token!, rate: { requests: Number(requests), perSeconds: Number(perSeconds), headroom: Number(headroom), burst: burst === undefined || burst === 'auto' ? 'auto' : Number(burst) } });
const api = createSmartsheetClient({
  baseUrl: apiBase,
  accessToken: token!,
  beforeRequest: (info) => budget.beforeRequest(info),
  onResponse: (info) => void budget.onResponse(info).catch(() => undefined),
});
// bench/fleet.ts: every command this process sends to Redis (a cluster client sends through one per node), counted.
let commandsSent = 0;
if (process.argv.includes('--count-commands')) {
  const send = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function countedSend(this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    commandsSent += 1;
    return send.apply(this, args);
  };
}
let peakRss = 0;
const reportRss = process.argv.includes('--report-rss');
setInterval(() => {
  const rss = process.memoryUsage().rss;
  peakRss = Math.max(peakRss, rss);
  // bench/overhead.ts samples the worker's memory while the batch runs.
  if (reportRss) process.stdout.write(`${JSON.stringify({ rss })}\n`);
}, 500).unref();
const pool = system.startWorkers({
  api,
  budget,
  registry: createJobRegistry(),
  concurrency: Number(concurrency),
  policy: { maxAttempts: 8, maxElapsedMs: 600_000, baseDelayMs: 1000, maxDelayMs: 60_000 },
  requestSettleMs: longestRequestMs(),
});
process.on('SIGTERM', () => {
  void (async () => {
    await pool.close(5000);
    await system.close();
    await redis.close();
    await api.close();
    process.stdout.write(`${JSON.stringify({ peakRss: Math.max(peakRss, process.memoryUsage().rss), commandsSent })}\n`);
    process.exit(0);
  })();
});
process.stdout.write('ready\n');
