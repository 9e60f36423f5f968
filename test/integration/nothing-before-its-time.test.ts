import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { DAY } from '../helpers/offboarding-harness.js';
import { ROOT } from '../helpers/run-seatflow.js';
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

describe('HR sync with separate workers: joiners, movers and leavers act on their dates, and undo tells the truth', () => {
  it('adds a joiner on the start date and never one undone before it, moves a seat on the effective date, deactivates a leaver after the last day', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const p = (processes = timedProcesses(h, batches.redis().url));
    const policy = path.join(ROOT, 'jobs/examples/lifecycle-policy.json');
    const example = readFileSync(path.join(ROOT, 'jobs/examples/hr-export-workday.csv'), 'utf8').trimEnd().split('\n');
    const kofi = '100103,Kofi,Mensah,kofi.mensah@acme.example,Active,01/06/2030,,Engineering,Software Engineer,dana.whitfield@acme.example,Berlin,';
    const first = h.writeManifest('hr-1.csv', [...example, kofi]);
    p.worker();
    p.worker();
    const applied = await p.run(['sync', first, '--policy', policy, '--apply', '--yes', '--no-wait']);
    expect(applied.code, applied.stderr).toBe(0);
    const joiners = /Joiners (j[0-9a-f]{12}) queued/.exec(applied.stdout)![1]!;

    await p.idle(4000);
    for (const email of ['nina.novak@acme.example', 'kofi.mensah@acme.example']) expect(await p.changesOf(email), email).toEqual([]);
    expect(await p.changesOf('marcus.chen@acme.example')).toEqual([]);
    // Undone before the start date: nothing was done, and nothing is.
    const undone = await p.run(['undo', joiners, '--user', 'kofi.mensah@acme.example', '--by', 'hr-ops']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('kofi.mensah@acme.example: undone: cancelled before its step ran: nothing was done');

    // The next night: Jordan moves to Sales (a CONTRIBUTOR seat by the default rule) from 10 January 2030.
    const moving = example.map((line) => (line.startsWith('100002,') ? '100002,Jordan,Lee,jordan.lee@acme.example,Active,06/15/2021,,Sales,Account Executive,dana.whitfield@acme.example,Berlin,01/10/2030' : line));
    const second = await p.run(['sync', h.writeManifest('hr-2.csv', [...moving, kofi]), '--policy', policy, '--apply', '--yes', '--no-wait']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(/Movers (m[0-9a-f]{12}) queued/);
    await p.idle(2000);
    expect(await p.changesOf('jordan.lee@acme.example')).toEqual([]);

    const start = Date.parse('2030-01-05T23:00:00Z');
    const effective = Date.parse('2030-01-09T23:00:00Z');
    const lastDay = Date.parse('2030-01-16T05:00:00Z');
    const moveTo = async (at: number) => p.advance(at - h.server.context.clock.now());
    await moveTo(start - 60_000);
    await p.idle(2000);
    expect(await p.changesOf('nina.novak@acme.example')).toEqual([]);
    await moveTo(start + 60_000);
    await p.until(async () => (await p.changesOf('nina.novak@acme.example')).length === 2);
    expect((await p.changesOf('nina.novak@acme.example')).map((c) => c.operation)).toEqual(['addUser', 'upgradeUser']);
    expectNoneBefore(await p.changesOf('nina.novak@acme.example'), start);

    await moveTo(effective - 60_000);
    await p.idle(2000);
    expect(await p.changesOf('jordan.lee@acme.example')).toEqual([]);
    await moveTo(effective + 60_000);
    await p.until(async () => (await p.changesOf('jordan.lee@acme.example')).length === 1);
    expect((await p.changesOf('jordan.lee@acme.example')).map((c) => c.operation)).toEqual(['downgradeUser']);
    expectNoneBefore(await p.changesOf('jordan.lee@acme.example'), effective);

    await moveTo(lastDay + 60_000);
    await p.until(async () => (await p.changesOf('marcus.chen@acme.example')).length === 1);
    expectNoneBefore(await p.changesOf('marcus.chen@acme.example'), lastDay);
    expect(await p.changesOf('kofi.mensah@acme.example')).toEqual([]);
    const status = await p.run(['status', joiners]);
    expect(status.stdout).toMatch(/nina\.novak@acme\.example\s+joined/);
    expect(status.stdout).toMatch(/kofi\.mensah@acme\.example\s+undone/);
  }, 240_000);
});
