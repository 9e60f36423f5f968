import { afterEach, describe, expect, it } from 'vitest';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { DAY } from '../helpers/offboarding-harness.js';
import { expectNoneBefore, timedProcesses, type TimedProcesses } from '../helpers/timed-processes.js';

const batches = useBatchHarnesses();
let processes: TimedProcesses | undefined;
afterEach(async () => {
  await processes?.stop();
  processes = undefined;
});

/**
 * The scenarios of "nothing before its time", as an operator runs them: `seatflow` commands and two `seatflow worker`
 * processes whose periodic checks run every half second. A row whose step is not due yet has neither a job nor an
 * outcome; no mechanism may take that for a lost row.
 */
describe('timed lifecycles with separate workers: nothing acts before its due instant', () => {
  it('an offboarding whose leave dates are ahead deactivates nobody until the service clock passes the last day, then each leaver once', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const p = (processes = timedProcesses(h, batches.redis().url));
    const leavers = await h.deactivatableEmails(3);
    const lastDay = new Date(h.server.context.clock.now() + 45 * DAY).toISOString().slice(0, 10);
    // The end of the last day in Berlin (24:00 local): 23:00 or 22:00 UTC of that date.
    const due = Date.parse(`${lastDay}T00:00:00+01:00`) + DAY;
    const file = h.writeManifest('leavers.csv', ['email,last day', ...leavers.map((email) => `${email},${lastDay}`)]);
    p.worker();
    p.worker();
    const offboarded = await p.run(['offboard', file, '--tz', 'Europe/Berlin', '--yes', '--no-wait']);
    expect(offboarded.code, offboarded.stderr).toBe(0);
    const id = /Offboarding (o[0-9a-f]{12}) queued/.exec(offboarded.stdout)![1]!;

    await p.idle(4000);
    for (const email of leavers) expect(await p.changesOf(email), email).toEqual([]);
    const before = await p.run(['status', id]);
    expect(before.stdout).toMatch(/3 scheduled/);

    // A minute before the end of the last day: still nothing.
    p.advance(due - h.server.context.clock.now() - 60_000);
    await p.idle(2000);
    for (const email of leavers) expect(await p.changesOf(email), email).toEqual([]);

    p.advance(2 * 60_000);
    await p.until(async () => (await Promise.all(leavers.map((email) => p.changesOf(email)))).every((changes) => changes.length === 1));
    for (const email of leavers) {
      const changes = await p.changesOf(email);
      expect(changes.map((c) => c.operation)).toEqual(['deactivateUser']);
      expectNoneBefore(changes, due);
    }
    await p.until(async () => /3 holding/.test((await p.run(['status', id])).stdout));
  }, 120_000);
});
