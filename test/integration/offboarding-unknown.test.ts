import { describe, expect, it } from 'vitest';
import { rowJobId, type RowJobData } from '../../src/queue/row-job.js';
import { LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE } from '../../src/queue/row-patience.js';
import { parseFaultSpec } from '../../src/server/index.js';
import { setPrimaryEmail } from '../../src/server/state/server-state.js';
import { useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

describe('an offboarding step whose row ended unknown', () => {
  it('keeps the leaver waiting (not failed) with a note saying how to settle it; seatflow retry confirms and the workflow goes on', async () => {
    const { h, o } = await open();
    const [leaverEmail] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email', leaverEmail!]);
    // What a worker leaves when an attempt may have applied and even the later confirm-only reads failed.
    await h.system.store.recordOutcome({
      batchId: workflow.deactivateBatch,
      row: 1,
      line: 2,
      action: 'deactivate',
      outcome: 'unknown',
      email: leaverEmail!,
      category: 'ServiceUnavailable',
      message: 'timed out; it may have been applied, and 3 later reads could not tell',
      attempts: 5,
      finishedAt: new Date().toISOString(),
    });
    o.startWorkers();
    await o.waitFor(async () => (await o.leaver(workflow.id, leaverEmail!)).notes.some((note) => note.includes(`seatflow retry ${workflow.deactivateBatch}`)));
    const waiting = await o.leaver(workflow.id, leaverEmail!);
    expect(waiting.phase).toBe('deactivating');
    expect(await o.changesOf(leaverEmail!)).toEqual([]);

    const { requeued } = await h.system.control.retry(workflow.deactivateBatch);
    expect(requeued).toBe(1);
    await o.waitFor(async () => (await o.leaver(workflow.id, leaverEmail!)).phase === 'holding');
    const held = await o.leaver(workflow.id, leaverEmail!);
    expect(held.notes.filter((note) => note.includes('could not be confirmed'))).toEqual([]);
    expect(await o.changesOf(leaverEmail!)).toEqual(['deactivateUser']);
  });

  it('never ends the row unknown while the service cannot answer: it reads on, and the leaver goes on once it answers', async () => {
    // Found by the whole-system simulation (seed 7024): a leaver's deactivation lost its answer, and its twelve late
    // confirm reads all fell in one long 5xx storm. The row ended `unknown`, and the leaver waited `deactivating`, her
    // removal never made, until someone would run `seatflow retry`: nobody watches a lifecycle's step.
    const { h, o } = await open();
    const [leaverEmail] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email', leaverEmail!]);
    // The deactivation (the first write) is made and answered 500; from then on every call answers 503.
    const faults = h.server.faults;
    const answers = faults.draw.bind(faults);
    const [madeThen500, unavailable] = [parseFaultSpec('500-after:1')[0], parseFaultSpec('503:1')[0]];
    let written = false;
    faults.draw = (method = 'GET') => {
      if (written) return unavailable;
      written = method !== 'GET' && method !== 'HEAD';
      return written ? madeThen500 : undefined;
    };
    o.startWorkers({ maxAttempts: 1, maxElapsedMs: 10_000, baseDelayMs: 5, maxDelayMs: 5 });
    // Past the twelve reads a row nothing waits on gets, with no outcome: the row still reads.
    const { row } = await o.leaver(workflow.id, leaverEmail!);
    const readsOf = async () => ((await h.system.queue.getJob(rowJobId(workflow.deactivateBatch, row))) as { data: RowJobData } | undefined)?.data.confirmLater?.tries ?? 0;
    await o.waitFor(async () => (await readsOf()) > LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE + 2);
    expect(await h.system.store.getOutcome(workflow.deactivateBatch, row)).toBeUndefined();
    expect((await o.leaver(workflow.id, leaverEmail!)).phase).toBe('deactivating');
    expect(await o.changesOf(leaverEmail!)).toEqual(['deactivateUser']);

    faults.draw = answers;
    await o.waitFor(async () => (await o.leaver(workflow.id, leaverEmail!)).phase === 'holding');
    expect(await h.system.store.getOutcome(workflow.deactivateBatch, row)).toMatchObject({ outcome: 'succeeded', confirmed: true });
    expect((await o.leaver(workflow.id, leaverEmail!)).notes.filter((note) => note.includes('could not be confirmed'))).toEqual([]);
    expect(await o.changesOf(leaverEmail!)).toEqual(['deactivateUser']);
  });

  /** An offboarding of one leaver due now, as a worker leaves it: deactivating, her deactivate row ended `unknown`. */
  async function unconfirmedDeactivation() {
    const { h, o } = await open();
    const [leaverEmail] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email', leaverEmail!]);
    const { row, line, userId } = await o.leaver(workflow.id, leaverEmail!);
    await o.system.store.update(workflow.id, row, (current) => ({ ...current, phase: 'deactivating', deactivateRequestedAt: o.clock.now() }));
    const unknown = { batchId: workflow.deactivateBatch, row, line, action: 'deactivate', outcome: 'unknown' as const, email: leaverEmail!, userId: userId!, category: 'ServiceUnavailable', message: 'the answer was lost; it may have been applied', attempts: 3, finishedAt: new Date(o.clock.now()).toISOString() };
    expect(await h.system.store.recordOutcome(unknown)).toBe(true);
    return { h, o, leaverEmail: leaverEmail!, workflow, row, userId: userId! };
  }

  it('ends the leaver skipped, saying why, once their user has left the organization: no retry could settle the row', async () => {
    // Found by the whole-system simulation (seed 6911): a manifest removed the leaver while her deactivate row waited
    // for the service's events; the row's confirming read then answered 404, and she waited `deactivating` for good
    // with a note naming a retry that could not settle it, her offboarding and its step batches open.
    const { h, o, leaverEmail, workflow, row, userId } = await unconfirmedDeactivation();
    await h.api.users.remove(userId);

    o.startWorkers();
    await o.settle(workflow.id);
    const leaver = await o.leaver(workflow.id, leaverEmail!);
    expect(leaver.phase).toBe('skipped');
    expect(leaver.reason).toBe(`the deactivation may have been applied and could not be confirmed, and ${leaverEmail!} is no longer a user of the organization`);
    expect(leaver.notes.filter((note) => note.includes('could not be confirmed'))).toEqual([]);
    expect((await h.system.store.getOutcome(workflow.deactivateBatch, row))?.outcome).toBe('unknown');
    const removal = await h.system.store.getOutcome(workflow.removeBatch, row);
    expect(removal?.outcome).toBe('skipped');
    expect(removal?.message).toBe(`not removed: ${leaver.reason!}`);
    expect((await h.system.store.getOutcome(workflow.reactivateBatch, row))?.outcome).toBe('skipped');
    for (const batchId of [workflow.deactivateBatch, workflow.removeBatch, workflow.reactivateBatch]) expect((await h.system.store.get(batchId))?.state).toBe('finished');
    expect((await o.system.store.get(workflow.id))?.state).toBe('finished');
    expect((await h.mutations()).filter((m) => m.userId === userId).map((m) => m.operation)).toEqual(['removeUser']);
  });

  it('keeps the leaver waiting when her user is still there under another address: a retry can settle the row', async () => {
    const { h, o, leaverEmail, workflow, row, userId } = await unconfirmedDeactivation();
    // Another address made primary meanwhile (a domain migration): nobody is at the old one, yet the user is there.
    setPrimaryEmail(h.server.context.state, h.server.context.state.users.get(userId)!, `moved.${leaverEmail}`);

    o.startWorkers();
    await o.waitFor(async () => (await o.leaver(workflow.id, leaverEmail)).notes.some((note) => note.includes(`seatflow retry ${workflow.deactivateBatch}`)));
    expect((await o.leaver(workflow.id, leaverEmail)).phase).toBe('deactivating');
    expect((await h.system.store.getOutcome(workflow.removeBatch, row))?.outcome).toBeUndefined();
  });
});
