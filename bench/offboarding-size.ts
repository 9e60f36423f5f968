/**
 * An offboarding of 1,000, 5,000 and 10,000 leavers against the reference server (in-process, rate limit off) and a
 * private redis-server: the time to plan, submit, run the deactivate steps, and (after the hold, on the server's
 * clock) run the remove steps until the workflow closes. Prints each phase's seconds and its time per leaver: that
 * figure staying flat as the offboarding grows is what "linear in leavers" means.
 * Usage: bin/seatflow-dev bench/offboarding-size.ts [LEAVERS...]   (default 1000 5000 10000)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createJobRegistry } from '../jobs/registry.js';
import { createSmartsheetClient } from '../src/client/create-smartsheet-client.js';
import { systemClock } from '../src/core/clock.js';
import { createSilentLogger } from '../src/core/logger.js';
import { createBatchSystem } from '../src/queue/batch-system.js';
import { openRedis } from '../src/queue/redis/open-redis.js';
import { startReferenceServer } from '../src/server/index.js';
import { createOffboardingSystem } from '../src/workflow/offboarding-system.js';
import { readLeavers } from '../src/workflow/read-leavers.js';
import { startTestRedis } from '../test/helpers/redis-server.js';

const DAY = 86_400_000;
const cpuTimes: Record<string, number> = {};
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
// stepPollMs as configured by default: a row's end wakes its step; the step's own look again is only the fallback.
const OFFBOARDING = { reactivationWindowDays: 30, defaultHoldDays: 7, minHoldHours: 24, stepPollMs: 5000, dueSweepMs: 1000, lastDayEndsAt: '24:00' };
const GUARDRAILS = { destructiveMaxCount: 1e9, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e9 };

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** One organization size for every run: the server's own cost per call then stays the same, and only seatflow's varies. */
const ORGANIZATION = Math.ceil(Math.max(...(sizes.length > 0 ? sizes : [10_000])) * 1.3) + 500;

async function measure(leavers: number): Promise<Record<string, number>> {
  const redis = await startTestRedis();
  const server = await startReferenceServer({ users: ORGANIZATION, rateLimit: 'off' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-offboarding-size-'));
  const logger = createSilentLogger();
  const handle = await openRedis({ url: redis.url, dataDir: dir, logger });
  const prefix = redis.prefix();
  const batches = createBatchSystem({ redis: handle, prefix, target: server.url, sim: true, logger });
  const budget = batches.budget({ accessToken: server.tokens.admin, rate: { requests: 1e9, perSeconds: 1, headroom: 0 } });
  const api = createSmartsheetClient({ baseUrl: server.url, accessToken: server.tokens.admin, beforeRequest: (info) => budget.beforeRequest(info) });
  // The workflow on the server's clock, as the CLI's service clock would read it: the hold ends when the bench moves it.
  const clock = { now: () => server.context.clock.now(), sleep: systemClock.sleep };
  const offboarding = createOffboardingSystem({ batches, redis: handle, prefix, target: server.url, sim: true, logger, offboarding: OFFBOARDING, clock });
  try {
    const emails: string[] = [];
    for (const user of server.context.state.users.values()) {
      if (emails.length === leavers) break;
      if (user.status === 'ACTIVE' && user.inOrg && !user.externallyManaged && !user.admin && /\.\d+@acme\.example$/.test(user.email)) emails.push(user.email);
    }
    if (emails.length < leavers) throw new Error(`only ${emails.length} deactivatable users`);
    const file = path.join(dir, 'leavers.csv');
    writeFileSync(file, `email\n${emails.join('\n')}\n`);
    const times: Record<string, number> = {};
    const phase = async (name: string, work: () => Promise<unknown>) => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      await work();
      times[name] = (performance.now() - started) / 1000;
      // This process's CPU in the phase (server, workers, steps): wall far above it is waiting, not working.
      const spent = process.cpuUsage(cpu);
      cpuTimes[name] = (spent.user + spent.system) / 1e6;
    };
    const rows = batches.startWorkers({ api, budget, registry: createJobRegistry(), concurrency: 32, policy: { maxAttempts: 8, maxElapsedMs: 600_000, baseDelayMs: 100, maxDelayMs: 1000 }, requestSettleMs: 10_000, serviceClock: clock });
    const steps = offboarding.startStepWorker({ api, concurrency: 32, sweepMs: 1000 });
    let workflowId = '';
    try {
      let plan: Awaited<ReturnType<typeof offboarding.plan>> | undefined;
      await phase('plan', async () => {
        plan = await offboarding.plan(await readLeavers({ path: file }), { api, config: { guardrails: GUARDRAILS, offboarding: OFFBOARDING }, options: { holdMs: DAY, removeFromSharing: false } });
      });
      await phase('submit', async () => {
        workflowId = (await offboarding.submit(plan!)).workflow.id;
      });
      await phase('deactivate', () => until(() => offboarding.settled(workflowId)));
      server.context.clock.advance(DAY + 60_000);
      await phase('remove+close', async () => {
        await offboarding.promoteDue(clock.now());
        await until(async () => (await offboarding.store.get(workflowId))?.state === 'finished' && (await offboarding.settled(workflowId)));
      });
    } finally {
      await steps.close(2000);
      await rows.close(2000);
    }
    const status = await offboarding.status(workflowId);
    if (status?.phases.removed !== leavers) throw new Error(`expected ${leavers} removed, got ${JSON.stringify(status?.phases)}`);
    return times;
  } finally {
    await offboarding.close();
    await batches.close();
    await handle.close();
    await api.close();
    await server.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`offboarding size: plan, submit, deactivate steps, remove steps until closed; an organization of ${ORGANIZATION} generated users (load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`);
console.log('leavers   plan s (ms/leaver)   submit s (ms/leaver)   deactivate s (ms/leaver)   remove+close s (ms/leaver)   total ms/leaver');
for (const leavers of sizes.length > 0 ? sizes : [1000, 5000, 10_000]) {
  const times = await measure(leavers);
  const cell = (name: string) => `${times[name]!.toFixed(2).padStart(7)} (${((1000 * times[name]!) / leavers).toFixed(3)})`.padEnd(22);
  const total = Object.values(times).reduce((sum, seconds) => sum + seconds, 0);
  console.log(`${String(leavers).padStart(7)}   ${cell('plan')} ${cell('submit')} ${cell('deactivate')}     ${cell('remove+close')}       ${((1000 * total) / leavers).toFixed(3)}`);
  console.log(`${''.padStart(7)}   CPU s of this process: ${['plan', 'submit', 'deactivate', 'remove+close'].map((name) => `${name} ${cpuTimes[name]!.toFixed(2)}`).join(', ')} (load ${os.loadavg()[0]!.toFixed(1)})`);
}
