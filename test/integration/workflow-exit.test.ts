import { afterEach, describe, expect, it } from 'vitest';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { seatflowProcesses, type SeatflowProcesses } from '../helpers/seatflow-processes.js';

const batches = useBatchHarnesses();
let processes: SeatflowProcesses | undefined;
afterEach(async () => {
  await processes?.stop();
  processes = undefined;
});

async function withWorkerElsewhere(h: BatchHarness): Promise<SeatflowProcesses> {
  processes = seatflowProcesses(h, batches.redis().url);
  processes.worker();
  const deadline = Date.now() + 30_000;
  while ((await h.system.queue.getWorkersCount()) === 0) {
    if (Date.now() > deadline) throw new Error('the seatflow worker process did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return processes;
}

describe('offboard and undo while a seatflow worker runs in another process', () => {
  // Before: the command's own workers were closed while their Redis connections were still starting (the other worker
  // had already done the work), and BullMQ's version check failed on the closed socket: an uncaught
  // "Connection is closed" and exit 1 after the work was done (undo 3 of 3 runs, offboard 2 of 10).
  it('undo and offboard (every leave date ahead) end with exit 0, every time', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const run = await withWorkerElsewhere(h);
    const [leaver, later] = await h.deactivatableEmails(2);
    const now = h.writeManifest('now.csv', ['email,transferTo', `${leaver},dana.whitfield@acme.example`]);
    const future = h.writeManifest('future.csv', ['email,leaveDate', `${later},2031-01-05T00:00:00Z`]);
    for (const hold of ['1d', '2d', '3d']) {
      const offboarded = await run.run(['offboard', now, '--hold', hold, '--yes']);
      expect(offboarded.code, offboarded.stderr).toBe(0);
      const id = /Offboarding (o[0-9a-f]{12}) queued/.exec(offboarded.stdout)?.[1];
      const undone = await run.run(['undo', id!]);
      expect(undone.stderr).not.toContain('Connection is closed');
      expect(undone.code, undone.stderr).toBe(0);
      expect(undone.stdout).toContain(`${leaver}: undone`);

      const scheduled = await run.run(['offboard', future, '--hold', hold, '--yes']);
      expect(scheduled.stderr).not.toContain('Connection is closed');
      expect(scheduled.code, scheduled.stderr).toBe(0);
      expect(scheduled.stdout).toMatch(/Report \(1 leaver; a snapshot as of 20\d\d-/);
      // The first time the deactivation is still to come (then the leaver is refused as already leaving): the report
      // says it is a snapshot and where the live one is.
      if (hold === '1d') expect(scheduled.stdout).toMatch(/The steps to come are not in it: the live report is {2}seatflow report o[0-9a-f]{12}/);
    }
  }, 240_000);
});
