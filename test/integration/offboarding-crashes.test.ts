import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAST_RETRY, type BatchHarness } from '../helpers/batch-harness.js';
import { DAY, useOffboardingHarnesses, type OffboardingHarness } from '../helpers/offboarding-harness.js';
import { reactivationSeatOf } from '../../src/workflow/reactivation-seat.js';
import { removeRow } from '../../src/workflow/leaver-rows.js';
import { createOffboardingSteps } from '../../src/workflow/step-processor.js';

const harnesses = useOffboardingHarnesses();
const { batches } = harnesses;
let child: ChildProcess | undefined;
afterEach(() => {
  if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

async function open(faults?: string) {
  return harnesses.open(faults === undefined ? {} : { faults });
}

/** The real `seatflow worker`, configured as an operator would, with short locks so a killed worker's work returns fast. */
function spawnWorker(h: BatchHarness): ChildProcess {
  const config = h.writeManifest(`worker-config-${Date.now()}.json`, [
    JSON.stringify({ worker: { concurrency: 4, lockDurationMs: 2000, stalledIntervalMs: 1000 }, retry: FAST_RETRY, rateLimit: { requests: 6000, perSeconds: 60, headroom: 0 }, offboarding: { reactivationWindowDays: 7, defaultHoldDays: 7, stepPollMs: 100 } }),
  ]);
  return spawn(process.execPath, [path.resolve('bin/seatflow'), 'worker', '--config', config], {
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, REDIS_URL: batches.redis().url, SEATFLOW_QUEUE_PREFIX: h.prefix, SMARTSHEET_API_BASE: h.server.url, SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin, SEATFLOW_LOG_LEVEL: 'error' },
  });
}

async function kill(process: ChildProcess): Promise<void> {
  const exited = once(process, 'exit');
  process.kill('SIGKILL');
  await exited;
}

/** One leaver offboarded with a one-day hold, deactivated by the workers (still running): holding. */
async function oneLeaverHolding() {
  const { h, o } = await open();
  const [email] = await h.deactivatableEmails(1);
  const workflow = await o.offboard(['email', email!], { holdMs: DAY });
  o.startWorkers();
  await o.settle(workflow.id);
  return { h, o, email, workflow };
}

async function expectDeactivatedOnceRemovedOnce(o: OffboardingHarness, emails: readonly string[]): Promise<void> {
  for (const email of emails) expect(await o.changesOf(email), email).toEqual(['deactivateUser', 'removeUser']);
}

describe('offboarding interrupted', () => {
  it('the hold survives a worker restart and a Redis restart: the removal runs once when due', async () => {
    const { h, o } = await open();
    const emails = await h.deactivatableEmails(4);
    const workflow = await o.offboard(['email', ...emails]);
    o.startWorkers();
    await o.settle(workflow.id);
    await o.stopWorkers();
    // The pending removals exist only as delayed jobs in Redis: restart it (append-only file) with no worker running.
    await batches.redis().restart();
    o.startWorkers();
    await o.advance(7 * DAY + 60_000);
    await o.settle(workflow.id);
    for (const email of emails) expect((await o.leaver(workflow.id, email)).phase).toBe('removed');
    await expectDeactivatedOnceRemovedOnce(o, emails);
  });

  it('a leaver removing whose remove row a failover dropped (the phase kept): the step saves the row again and removes once', async () => {
    const { o, email, workflow } = await oneLeaverHolding();
    const holding = await o.leaver(workflow.id, email!);
    expect(holding.phase).toBe('holding');
    // As Redis kept it after a failover between the two writes: the phase says removing, the remove batch has no row.
    await o.system.store.update(workflow.id, holding.row, (current) => ({ ...current, phase: 'removing' }));
    expect(await o.system.engine.context.batches.getRow(workflow.removeBatch, holding.row)).toBeUndefined();
    await o.advance(DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, email!)).phase).toBe('removed');
    await expectDeactivatedOnceRemovedOnce(o, [email!]);
  });

  it('a leaver holding whose removal ran while the phase written before it was lost: removed once, not taken for "removed by someone else"', async () => {
    // Found by the whole-system simulation (Sentinel seeds 2604, 3602): the re-check passed, the remove row was saved
    // and ran, and the phase `removing` written between them was lost in a failover; the step, run again from
    // `holding`, re-checked, found the user gone, and said someone else had removed them.
    const { h, o, email, workflow } = await oneLeaverHolding();
    await o.stopWorkers();
    const holding = await o.leaver(workflow.id, email!);
    expect(holding.phase).toBe('holding');
    // Past the hold, the remove row as the step saves and queues it, run by the row workers alone (no step worker):
    // the user is removed, the phase stays.
    await o.advance(DAY + 60_000);
    const { context } = o.system.engine;
    await context.batches.rowLifecycle.queue(context.rowsQueue, workflow.removeBatch, [{ row: holding.row, planned: removeRow(workflow, holding, undefined) }]);
    const rows = h.startWorkers({ concurrency: 2 });
    await o.waitFor(() => context.batches.hasOutcome(workflow.removeBatch, holding.row));
    await rows.close(2000);
    expect((await o.leaver(workflow.id, email!)).phase).toBe('holding');
    o.startWorkers();
    await o.advance(60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, email!)).phase).toBe('removed');
    await expectDeactivatedOnceRemovedOnce(o, [email!]);
  });

  it('a step run again after its worker died between "removed" and the ends of the steps that will not run records those ends', async () => {
    // Found by the whole-system simulation (seed 4105): a worker killed just after writing "removed" left the
    // reactivate and restore rows without an end; the step, run again, saw the leaver ended and only closed it, so
    // those two batches never finished.
    const { h, o, email, workflow } = await oneLeaverHolding();
    await o.advance(DAY + 60_000);
    await o.settle(workflow.id);
    await o.stopWorkers();
    const removed = await o.leaver(workflow.id, email!);
    expect(removed.phase).toBe('removed');
    const { batches } = o.system.context;
    // As the killed worker left them: the phase written, the two ends not.
    for (const batchId of [workflow.reactivateBatch, workflow.restoreBatch!]) expect(await batches.forgetOutcome(batchId, removed.row, { outcome: 'skipped', finishedAt: (await batches.getOutcome(batchId, removed.row))?.finishedAt ?? '' }, 'planned')).toBe(true);
    const runStep = createOffboardingSteps(o.system.context);
    const run = { data: { workflowId: workflow.id, row: removed.row, step: 'remove', dueAt: 0 }, workflow, person: removed, api: h.api } as unknown as Parameters<typeof runStep>[0];
    expect(await runStep(run)).toBe('removed');
    for (const batchId of [workflow.reactivateBatch, workflow.restoreBatch!]) {
      expect((await batches.getOutcome(batchId, removed.row))?.outcome, batchId).toBe('skipped');
      expect((await batches.get(batchId))?.state, batchId).toBe('finished');
    }
  });

  it('a workflow record a failover left without its creation (only a later state kept) does not stop the other workflows’ steps', async () => {
    const { h, o } = await open();
    const [email] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email,leaveDate', `${email},${new Date(o.clock.now() + 2 * 86_400_000).toISOString()}`]);
    o.startWorkers();
    await o.settle(workflow.id);
    const { keys } = o.system.engine.context;
    await h.redisHandle.client.multi().hset(keys.workflow('odamaged00000'), 'state', 'open').sadd(keys.workflowsOpen, 'odamaged00000').exec();
    await expect(o.system.engine.context.records.get('odamaged00000')).rejects.toThrow(/workflow odamaged00000 is missing .*id/);
    await o.advance(2 * DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, email!)).phase).toBe('holding');
    expect(await o.changesOf(email!)).toEqual(['deactivateUser']);
  });

  it('a worker killed with SIGKILL in the deactivate step and again in the remove step: each user deactivated once and removed once', async () => {
    // Every call takes 300 ms, so the killed worker has steps and rows in flight.
    const { h, o } = await open('delay:300ms:1');
    const emails = await h.deactivatableEmails(6);
    const workflow = await o.offboard(['email,transferTo', ...emails.map((email) => `${email},dana.whitfield@acme.example`)]);
    const done = async (batchId: string) => (await h.outcomes(batchId)).length;

    child = spawnWorker(h);
    await o.waitFor(async () => (await done(workflow.deactivateBatch)) >= 1);
    await kill(child);
    expect(await done(workflow.deactivateBatch)).toBeLessThan(6);
    o.startWorkers();
    await o.settle(workflow.id, 60_000);
    for (const email of emails) expect((await o.leaver(workflow.id, email)).phase).toBe('holding');
    await o.stopWorkers();

    await o.advance(7 * DAY + 60_000);
    child = spawnWorker(h);
    await o.waitFor(async () => (await done(workflow.removeBatch)) >= 1);
    await kill(child);
    expect(await done(workflow.removeBatch)).toBeLessThan(6);
    o.startWorkers();
    await o.settle(workflow.id, 60_000);
    for (const email of emails) expect((await o.leaver(workflow.id, email)).phase).toBe('removed');
    await expectDeactivatedOnceRemovedOnce(o, emails);
    // Two seatflow processes start and a killed one's work waits for its locks to lapse: room for a loaded machine.
  }, 150_000);

  it('a worker killed with SIGKILL while undo reactivates: each user deactivated once and reactivated once', async () => {
    const { h, o } = await open('delay:300ms:1');
    const emails = await h.deactivatableEmails(6);
    const workflow = await o.offboard(['email', ...emails]);
    o.startWorkers();
    await o.settle(workflow.id, 60_000);
    await o.stopWorkers();
    const undone = await o.system.undo(workflow.id, { by: 'hr.operator' });
    expect(undone?.every((result) => result.reactivating)).toBe(true);

    const reactivated = async () => (await h.outcomes(workflow.reactivateBatch)).length;
    child = spawnWorker(h);
    await o.waitFor(async () => (await reactivated()) >= 1);
    await kill(child);
    expect(await reactivated()).toBeLessThan(6);
    o.startWorkers();
    await o.settle(workflow.id, 60_000);
    for (const email of emails) {
      // Reactivation assigns a Member seat; a leaver who held less before gets it back with one downgrade after it.
      const restore = reactivationSeatOf((await o.leaver(workflow.id, email)).stateBefore).restore;
      expect(await o.changesOf(email), email).toEqual(['deactivateUser', 'reactivateUser', ...(restore === undefined ? [] : ['downgradeUser'])]);
    }
    expect((await h.outcomes(workflow.removeBatch)).every((outcome) => outcome.outcome === 'cancelled')).toBe(true);
  }, 150_000);
});
