// A worker process for tests that kill it: `bin/seatflow-dev test/helpers/worker-child.ts REDIS_URL PREFIX API_BASE TOKEN`.
// It assembles the same pieces as `seatflow worker` with short locks, so a killed worker's rows come back quickly.
import { createJobRegistry } from '../../jobs/registry.js';
import { createSmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { createSilentLogger } from '../../src/core/logger.js';
import { createBatchSystem } from '../../src/queue/batch-system.js';
import { openRedis } from '../../src/queue/redis/open-redis.js';
import { FAST_RETRY } from './batch-harness.js';

const [redisUrl, prefix, apiBase, token, concurrency] = process.argv.slice(2) as [string, string, string, string, string | undefined];
const logger = createSilentLogger();
const redis = await openRedis({ url: redisUrl, dataDir: '.', logger });
const system = createBatchSystem({ redis, prefix, target: apiBase, sim: true, logger });
const budget = system.budget({ accessToken: token, rate: { requests: 6000, perSeconds: 60, headroom: 0 } });
const api = createSmartsheetClient({
  baseUrl: apiBase,
  accessToken: token,
  beforeRequest: (info) => budget.beforeRequest(info),
  onResponse: (info) => void budget.onResponse(info).catch(() => undefined),
});
system.startWorkers({ api, budget, registry: createJobRegistry(), concurrency: Number(concurrency ?? 4), policy: FAST_RETRY, lockDurationMs: 4000, stalledIntervalMs: 1000 });
process.stdout.write('ready\n');
