import { CLIENT_TIMEOUTS } from '../world/world-config.js';
import type { FaultKind } from './fault-kind.js';
import { redisFailover } from './redis-failover.js';
import { redisRestart } from './redis-restart.js';
import { serviceStorm } from './service-storm.js';
import { skewedWorker } from './skewed-worker.js';
import { workerKill } from './worker-kill.js';

/**
 * Every kind of fault the generator draws from. Each draws from its own stream of the seed, so adding one changes no
 * other's faults; docs/architecture.md says how to add one.
 */
export const FAULT_KINDS: readonly FaultKind[] = [
  workerKill,
  redisRestart,
  redisFailover,
  skewedWorker,
  serviceStorm('error-storm', 1, (draw) => `500:${draw.pick([0.2, 0.4])},503:${draw.pick([0.1, 0.3])}`, '500/503 storm'),
  // Mild: every 429 (without Retry-After) pauses the fleet and lowers the rate it learned, raised again only slowly.
  serviceStorm('throttle-storm', 1, (draw) => `429:${draw.pick([0.05, 0.15])}`, '429 storm'),
  serviceStorm('lost-answers', 1, (draw) => `500-after:${draw.pick([0.2, 0.4])},reset-after:${draw.pick([0.1, 0.2])}`, 'answers lost after the change'),
  serviceStorm('slow-answers', 0.7, (draw) => `delay:${CLIENT_TIMEOUTS.headersMs + 700}ms:${draw.pick([0.2, 0.5])}`, 'answers slower than the client waits'),
];
