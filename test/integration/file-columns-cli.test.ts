import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSeatflow } from '../helpers/run-seatflow.js';

// The file means what it says (issue 18, rules 13, 14, 16), through bin/seatflow as a person runs it.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seatflow-columns-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, lines: string[]): Promise<string> {
  const at = path.join(dir, name);
  await writeFile(at, `${lines.join('\n')}\n`);
  return at;
}

describe('manifests: a column nearly named like a field is refused, never dropped', () => {
  it('refuses a CSV manifest with tranferTo: exit 2, "did you mean transferTo"', async () => {
    const manifest = await file('remove.csv', ['email,action,tranferTo', 'jordan.lee@acme.example,remove,dana.whitfield@acme.example']);
    const { code, stdout, stderr } = await runSeatflow(['plan', manifest, '--sim']);
    expect(code).toBe(2);
    expect(stderr).toContain('column "tranferTo" is not a field of a manifest: did you mean "transferTo"?');
    expect(stderr).toContain('nothing was done');
    expect(stdout).not.toContain('remove');
  });

  it('refuses a remove manifest with transferSheet, and one whose transfer target sits in an unknown column', async () => {
    const sheet = await file('sheet.csv', ['email,action,transferTo,transferSheet', 'jordan.lee@acme.example,remove,dana.whitfield@acme.example,true']);
    const refused = await runSeatflow(['plan', sheet, '--sim']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('column "transferSheet" is not a field of a manifest: did you mean "transferSheets"?');
    const manager = await file('manager.csv', ['Email,Manager', 'jordan.lee@acme.example,dana.whitfield@acme.example']);
    const run = await runSeatflow(['run', manager, '--action', 'remove', '--sim']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('column "Manager" holds e-mail addresses ("dana.whitfield@acme.example" on line 2)');
    expect(run.stderr).toContain('--ignore-column "Manager"');
  });
});

describe('leavers files: a leave date in a column seatflow does not know is refused, or read as the option says', () => {
  for (const column of ['Leaving Date', 'Term Date', 'Letzter Tag']) {
    it(`refuses "${column}" with exit 2, naming the column and --leave-date-column`, async () => {
      const leavers = await file('leavers.csv', [`Email,${column},Manager`, 'jordan.lee@acme.example,2030-03-01,dana.whitfield@acme.example']);
      const { code, stdout, stderr } = await runSeatflow(['offboard', leavers, '--sim', '--tz', 'Europe/Berlin', '--dry-run'], { SEATFLOW_DATA_DIR: dir });
      expect(code).toBe(2);
      expect(stderr).toContain(`column "${column}" holds dates ("2030-03-01" on line 2)`);
      expect(stderr).toContain(`pass --leave-date-column "${column}"`);
      expect(stdout).not.toContain('deactivate now');
    });
  }

  it('plans on that date with --leave-date-column "Leaving Date": the last day ends at the end of that day in --tz, and the plan shows the instant', async () => {
    const leavers = await file('leavers.csv', ['Email,Leaving Date,Manager', 'jordan.lee@acme.example,2030-03-01,dana.whitfield@acme.example']);
    const { code, stdout, stderr } = await runSeatflow(['offboard', leavers, '--sim', '--tz', 'Europe/Berlin', '--dry-run', '--leave-date-column', 'Leaving Date'], { SEATFLOW_DATA_DIR: dir });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('0 deactivate now, 1 on a later date');
    // 24:00 on 1 March 2030 in Berlin (UTC+1) is 23:00 UTC.
    expect(stdout).toContain('deactivate on 2030-03-01T23:00Z (Leaving Date: end of last day 2030-03-01 in Europe/Berlin)');
    expect(stdout).toContain('Dry run: nothing was queued.');
  }, 60_000);

  it('reads a date alone in a last-day column as the end of that day in --tz, and offboarding.lastDayEndsAt moves it', async () => {
    const leavers = await file('leavers.csv', ['email,Last Day', 'jordan.lee@acme.example,2030-07-15']);
    const endOfDay = await runSeatflow(['offboard', leavers, '--sim', '--tz', 'America/New_York', '--dry-run'], { SEATFLOW_DATA_DIR: dir });
    expect(endOfDay.code).toBe(0);
    // New York is UTC-4 in July: the end of 15 July is 04:00 UTC on the 16th.
    expect(endOfDay.stdout).toContain('deactivate on 2030-07-16T04:00Z (Last Day: end of last day 2030-07-15 in America/New_York)');
    const config = await file('config.json', [JSON.stringify({ offboarding: { lastDayEndsAt: '18:00' } })]);
    const evening = await runSeatflow(['offboard', leavers, '--sim', '--tz', 'America/New_York', '--dry-run', '--config', config], { SEATFLOW_DATA_DIR: dir });
    expect(evening.code).toBe(0);
    expect(evening.stdout).toContain('deactivate on 2030-07-15T22:00Z (Last Day: 18:00 on last day 2030-07-15 in America/New_York)');
  }, 60_000);
});
