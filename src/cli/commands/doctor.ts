import type { Command } from 'commander';
import { serviceRegionOf } from '../../core/config.js';
import { RedisUnavailableError } from '../../queue/redis/open-redis.js';
import { scheduleQueueNameOf } from '../../queue/queue-keys.js';
import { stepQueueNameOf } from '../../workflow/step-job.js';
import { openBatchRuntime } from '../batch-runtime.js';
import { createCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, overridesFromFlags, type CommonFlags } from '../common-options.js';
import { doctorExitCode, fail, type DoctorCheck } from '../doctor/doctor-check.js';
import { formatDoctor } from '../doctor/format-doctor.js';
import { checkRedisAndWork } from '../doctor/redis-checks.js';
import { checkService } from '../doctor/service-checks.js';
import { openOffboarding } from '../offboarding-runtime.js';
import { openScheduleBook } from '../reconcile-runtime.js';

interface DoctorFlags extends CommonFlags {
  json?: boolean;
}

/**
 * `seatflow doctor`: checks and explains, one line each, OK/WARN/FAIL with what to do: the token, the target and its
 * clock, Redis and its persistence, the workers of this target, steps due and not taken, schedules. Exit 0 when nothing
 * failed (warnings allowed), 1 a check failed, 2 the token or configuration was refused, 3 Redis is unreachable.
 */
export function defineDoctorCommand(command: Command): void {
  command.option('--json', 'print the checks as JSON, for monitoring');
  addCommonOptions(command).action(async (flags: DoctorFlags) => {
    process.exitCode = await doctor(flags);
  });
}

async function doctor(flags: DoctorFlags): Promise<number> {
  const runtime = await createCliRuntime({
    sim: flags.sim === true,
    // A missing token is one of the findings, not a reason to stop.
    requireToken: false,
    ...(flags.config === undefined ? {} : { configFile: flags.config }),
    flags: overridesFromFlags(flags),
  });
  try {
    let lastDate: { serviceMs: number; receivedAt: number } | undefined;
    const api =
      runtime.config.api.accessToken === undefined
        ? undefined
        : runtime.createApi({ onResponse: (info) => void (info.serviceDateMs === undefined ? undefined : (lastDate = { serviceMs: info.serviceDateMs, receivedAt: Date.now() })) });
    const checks: DoctorCheck[] = await checkService({ baseUrl: runtime.config.api.baseUrl, region: serviceRegionOf(runtime.config), api, lastDate: () => lastDate });
    checks.push(...(await redisChecks(runtime)));
    const exitCode = doctorExitCode(checks);
    process.stdout.write(flags.json === true ? `${JSON.stringify({ target: runtime.targetLabel, exitCode, checks }, null, 2)}\n` : formatDoctor(runtime.targetLabel, checks));
    return exitCode;
  } finally {
    await runtime.close();
  }
}

async function redisChecks(runtime: Awaited<ReturnType<typeof createCliRuntime>>): Promise<DoctorCheck[]> {
  let batch;
  try {
    batch = await openBatchRuntime(runtime);
  } catch (error) {
    if (!(error instanceof RedisUnavailableError)) throw error;
    return [fail('redis', error.message, error.hint ?? 'Check REDIS_URL.', error.exitCode)];
  }
  const offboarding = openOffboarding(runtime, batch);
  const workflows = await offboarding.store.list(1000);
  return checkRedisAndWork({
    redis: batch.redis,
    prefix: runtime.config.redis.queuePrefix,
    queues: { rows: batch.system.queue.name, steps: stepQueueNameOf(batch.target), schedules: scheduleQueueNameOf(batch.target) },
    openOffboardings: workflows.filter((workflow) => workflow.state === 'open').length,
    schedules: await openScheduleBook(runtime, batch).list(),
    stepQueue: offboarding.context.stepQueue,
    now: Date.now(),
  });
}
