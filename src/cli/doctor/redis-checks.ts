import { Queue } from 'bullmq';
import type { RedisHandle } from '../../queue/redis/open-redis.js';
import { closeBullmq } from '../../queue/redis/close-bullmq.js';
import { readRedisPersistence, type RedisPersistence } from '../../queue/redis/redis-persistence.js';
import type { ScheduleView } from '../../reconcile/schedule-book.js';
import type { StepJobData } from '../../workflow/step-job.js';
import { plural } from '../../core/plural.js';
import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';

/** A step this long past its due time and not taken by a worker is reported (a worker takes a due step within ms). */
const OVERDUE_GRACE_MS = 60_000;

const START_WORKER = 'Start one: seatflow worker (as a service: deploy/ has systemd, compose and Kubernetes recipes; docs/operations.md).';

export interface RedisCheckInput {
  redis: RedisHandle;
  prefix: string;
  /** The target's queues: rows of batches, offboarding steps, reconciliation schedules. */
  queues: { rows: string; steps: string; schedules: string };
  /** Open offboardings (holds that must survive a restart). */
  openOffboardings: number;
  schedules: readonly ScheduleView[];
  stepQueue: Queue<StepJobData>;
  now: number;
}

/**
 * Redis (version, persistence, eviction; behind Sentinel, what a failover may drop), the workers serving this target's
 * queues, steps due and not taken, schedules.
 */
export async function checkRedisAndWork(input: RedisCheckInput): Promise<DoctorCheck[]> {
  const persistence = await readRedisPersistence(input.redis.client);
  const failover = failoverCheck(input.redis.kind, persistence);
  return [redisCheck(input, persistence), ...(failover === undefined ? [] : [failover]), ...(await workChecks(input))];
}

/**
 * Behind Sentinel, a master that takes writes with no replica in sync (its replica just promoted away from it, or still
 * syncing) has them dropped by the failover: a row may then run twice. `min-replicas-to-write 1` has it refuse them
 * instead, and seatflow waits (docs/operations.md). A cluster's own failover pauses writes until the replica caught up.
 */
export function failoverCheck(kind: RedisHandle['kind'], persistence: Pick<RedisPersistence, 'minReplicasToWrite'>): DoctorCheck | undefined {
  if (kind !== 'sentinel') return undefined;
  const setting = persistence.minReplicasToWrite;
  const details = { minReplicasToWrite: setting };
  if (setting === undefined) return ok('failover', 'min-replicas-to-write unknown (the server refuses CONFIG): make sure it is 1 on every server', details);
  if (setting >= 1) return ok('failover', `min-replicas-to-write ${setting}: a master without its replica in sync refuses writes, so a failover drops none`, details);
  return warn(
    'failover',
    'min-replicas-to-write 0: a write the master takes just before a failover (or while its replica syncs) can be dropped by it, and a row then runs twice',
    'Set min-replicas-to-write 1 and min-replicas-max-lag 10 on every server (seatflow waits out the writes they refuse): docs/operations.md, Redis Cluster and Sentinel.',
    details,
  );
}

function redisCheck(input: RedisCheckInput, persistence: RedisPersistence): DoctorCheck {
  const where = `${input.redis.description}${persistence.version === undefined ? '' : `, Redis ${persistence.version}`}`;
  const details = { kind: input.redis.kind, ...persistence };
  if (persistence.maxmemoryPolicy !== undefined && persistence.maxmemoryPolicy !== 'noeviction') {
    return fail('redis', `${where}: maxmemory-policy is ${persistence.maxmemoryPolicy}: a full Redis evicts jobs and outcomes`, 'Set maxmemory-policy noeviction (BullMQ requires it).', 1, details);
  }
  if (persistence.aof) return ok('redis', `${where}: reachable, append-only file on`, details);
  if (persistence.rdb === true) {
    return warn('redis', `${where}: snapshots (RDB) only: what was written since the last snapshot is lost at a crash`, 'Turn the append-only file on: appendonly yes (the recipes of deploy/ do).', details);
  }
  const waiting = input.openOffboardings + input.schedules.length;
  const loses =
    waiting > 0
      ? `${plural(input.openOffboardings, 'open offboarding')} and ${plural(input.schedules.length, 'schedule')} would be lost at its next restart`
      : 'an offboarding hold or a schedule would be lost at its next restart';
  const message = `${where}: keeps nothing on disk (append-only file off, snapshots ${persistence.rdb === false ? 'off' : 'unknown'}): ${loses}`;
  const hint = 'Turn the append-only file on (appendonly yes), unset REDIS_URL to use the private Redis, or use a recipe of deploy/.';
  return waiting > 0 ? fail('redis', message, hint, 1, details) : warn('redis', message, hint, details);
}

async function workChecks(input: RedisCheckInput): Promise<DoctorCheck[]> {
  const served = await Promise.all(Object.entries(input.queues).map(async ([role, name]) => [role, await workersOf(input, name)] as const));
  const byRole = Object.fromEntries(served) as Record<keyof RedisCheckInput['queues'], WorkerSeen[]>;
  const rows = byRole.rows;
  // Each worker holds a connection per queue: its host (the address without the port) names the machine.
  const where = [...new Set(served.flatMap(([, workers]) => workers.map((worker) => worker.addr.replace(/:\d+$/, ''))))];
  const workers =
    rows.length === 0
      ? warn('workers', 'no worker serves this target: submitted batches, offboarding steps and schedules wait', START_WORKER, { rows: 0, steps: byRole.steps.length, schedules: byRole.schedules.length })
      : ok(
          'workers',
          `${plural(rows.length, 'worker')} alive (from ${where.join(', ')}): rows ${rows.length}, offboarding steps ${byRole.steps.length}, schedules ${byRole.schedules.length}`,
          { rows: rows.length, steps: byRole.steps.length, schedules: byRole.schedules.length, addresses: where },
        );
  return [workers, await stepsCheck(input, byRole.steps.length), schedulesCheck(input, byRole.schedules.length)];
}

interface WorkerSeen {
  addr: string;
  ageSeconds: number;
}

/** Workers alive on a queue: BullMQ names each worker's connection after its queue, and Redis lists live connections. */
async function workersOf(input: RedisCheckInput, queueName: string): Promise<WorkerSeen[]> {
  const queue = new Queue(queueName, { connection: input.redis.bullmqConnection(), prefix: input.prefix });
  try {
    const clients = await queue.getWorkers();
    return clients.map((client) => ({ addr: client.addr ?? 'unknown', ageSeconds: Number(client.age ?? 0) }));
  } finally {
    await closeBullmq(queue);
  }
}

async function stepsCheck(input: RedisCheckInput, stepWorkers: number): Promise<DoctorCheck> {
  const jobs = [...(await input.stepQueue.getDelayed()), ...(await input.stepQueue.getWaiting())];
  // A step that polls for its row's outcome was taken already; it is not waiting for a worker.
  const waiting = jobs.filter((job) => (job.data.polls ?? 0) === 0).map((job) => job.data);
  const overdue = waiting.filter((step) => step.dueAt <= input.now - OVERDUE_GRACE_MS).sort((a, b) => a.dueAt - b.dueAt);
  const upcoming = waiting.filter((step) => step.dueAt > input.now).sort((a, b) => a.dueAt - b.dueAt);
  const next = upcoming[0] === undefined ? 'none to come' : `next ${upcoming[0].step} due ${new Date(upcoming[0].dueAt).toISOString()} (${plural(upcoming.length, 'step')} to come)`;
  const details = { overdue: overdue.length, upcoming: upcoming.length, oldestDue: overdue[0] === undefined ? undefined : new Date(overdue[0].dueAt).toISOString() };
  if (overdue.length > 0) {
    const oldest = overdue[0]!;
    return fail(
      'steps',
      `${plural(overdue.length, 'offboarding step')} due and not taken (oldest: ${oldest.step} of offboarding ${oldest.workflowId}, due ${new Date(oldest.dueAt).toISOString()}); ${next}`,
      stepWorkers === 0 ? START_WORKER : 'A worker is connected but does not take them: check its log (seatflow worker) and seatflow status OFFBOARDING.',
      1,
      details,
    );
  }
  return ok('steps', `no step overdue; ${next}`, details);
}

function schedulesCheck(input: RedisCheckInput, scheduleWorkers: number): DoctorCheck {
  if (input.schedules.length === 0) return ok('schedules', 'none (seatflow schedule add)', { count: 0 });
  const lines = input.schedules.map((schedule) => `${schedule.name} next ${schedule.next ?? 'never'}`);
  const details = { count: input.schedules.length, next: Object.fromEntries(input.schedules.map((schedule) => [schedule.name, schedule.next])) };
  const message = `${plural(input.schedules.length, 'schedule')}: ${lines.join('; ')}`;
  return scheduleWorkers === 0 ? warn('schedules', `${message}; no worker fires them`, START_WORKER, details) : ok('schedules', message, details);
}
