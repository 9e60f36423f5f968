import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManifestRefusedError } from '../../../src/plan/manifest-refused-error.js';
import { lifecyclePolicySchema } from '../../../src/sync/lifecycle-policy.js';
import { readHrExport } from '../../../src/sync/read-hr-export.js';
import { ROOT } from '../../helpers/run-seatflow.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-hr-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const write = (lines: readonly string[], ext = 'csv') => {
  files += 1;
  const file = path.join(dir, `export-${files}.${ext}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
};
const policyOf = (extra: object = {}) => lifecyclePolicySchema.parse({ timeZone: 'Europe/Berlin', seats: {}, ...extra });
// The employees as an array (the export keeps them compact, read by iterating).
const read = async (file: string, extra: object = {}) => {
  const hrExport = await readHrExport({ path: file, policy: policyOf(extra), lastDayEndsAt: '24:00' });
  return { ...hrExport, employees: [...hrExport.employees] };
};
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ManifestRefusedError);
  return `${(error as ManifestRefusedError).message} | ${(error as ManifestRefusedError).hint ?? ''}`;
};

describe('readHrExport', () => {
  it('reads both example shapes (Workday-style, BambooHR-style) as the same employees', async () => {
    const policy = JSON.parse((await import('node:fs')).readFileSync(path.join(ROOT, 'jobs/examples/lifecycle-policy.json'), 'utf8')) as object;
    const workday = await read(path.join(ROOT, 'jobs/examples/hr-export-workday.csv'), policy);
    const bamboo = await read(path.join(ROOT, 'jobs/examples/hr-export-bamboohr.csv'), policy);
    const facts = (e: (typeof workday.employees)[number]) => [e.email, e.status, e.startAt, e.endAt, e.department, e.title, e.managerEmail, e.location, e.timeZone];
    expect(workday.employees.map(facts)).toEqual(bamboo.employees.map(facts));
    expect(workday.employees.map((e) => e.employeeId).slice(0, 2)).toEqual(['100001', '100002']);
    expect(bamboo.employees.map((e) => e.employeeId).slice(0, 2)).toEqual(['1', '2']);
    expect(bamboo.ignored).toEqual(['Division', 'Employment Status']);
    const marcus = workday.employees.find((e) => e.email === 'marcus.chen@acme.example');
    // A last day ends at the end of that day, in the zone of the employee's location.
    expect(marcus?.end).toEqual({ written: '01/15/2030', column: 'Termination Date', readAs: 'end of last day 01/15/2030 in America/New_York' });
    expect(new Date(marcus?.endAt ?? 0).toISOString()).toBe('2030-01-16T05:00:00.000Z');
    const nina = workday.employees.find((e) => e.email === 'nina.novak@acme.example');
    expect(new Date(nina?.startAt ?? 0).toISOString()).toBe('2030-01-05T23:00:00.000Z');
  });

  it('reads column names the policy maps, and refuses a near miss or an unmapped column of dates', async () => {
    const mapped = await read(write(['Personalnummer,Mail,Eintritt', 'P7,jo@acme.example,2026-12-01']), { columns: { employeeId: 'Personalnummer', startDate: 'Eintritt' } });
    expect(mapped.employees.map((e) => [e.employeeId, e.email, new Date(e.startAt ?? 0).toISOString()])).toEqual([['P7', 'jo@acme.example', '2026-11-30T23:00:00.000Z']]);
    expect(await refusal(read(write(['Employe Number,Work Email', '7,jo@acme.example'])))).toMatch(/column "Employe Number" is not a field of a HR export: did you mean "employeeId"\?/);
    const dates = await refusal(read(write(['Employee ID,Work Email,Original Hire Date', '7,jo@acme.example,2019-04-01'])));
    expect(dates).toMatch(/column "Original Hire Date" holds dates.*map it in the policy's "columns".*list "Original Hire Date" in the policy's "ignoreColumns"/s);
    const ignored = await read(write(['Employee ID,Work Email,Original Hire Date', '7,jo@acme.example,2019-04-01']), { ignoreColumns: ['Original Hire Date'] });
    expect(ignored.employees).toHaveLength(1);
    expect(await refusal(read(write(['Employee ID,Work Email', '7,jo@acme.example']), { columns: { endDate: 'Last Day' } }))).toMatch(/the policy's columns\.endDate "Last Day": the HR export has no such column/);
  });

  it('refuses the whole export for any bad row, naming each: an unknown status, a bad date or e-mail, duplicates', async () => {
    const message = await refusal(
      read(
        write([
          'Employee ID,Work Email,Status,Hire Date,Manager',
          '1,ann@acme.example,Active,2026-01-05,bob@acme.example',
          '2,bob@acme.example,Sabbatical,2026-01-05,',
          '3,not-an-address,Active,2026-01-05,',
          '1,cat@acme.example,Active,05.01.2026,',
          '4,ann@acme.example,Active,2026-01-05,ann@acme.example',
        ]),
      ),
    );
    expect(message).toMatch(/line 3.*status "Sabbatical" is neither active nor a leaver in the policy's "statuses"/);
    expect(message).toMatch(/line 4.*"not-an-address" is not a valid e-mail address/);
    expect(message).toMatch(/line 5.*"05\.01\.2026" is not a date written YYYY-MM-DD/);
    expect(message).toMatch(/line 5.*employee 1 is already in row 1/);
    expect(message).toMatch(/line 6.*the employee is their own manager/);
    expect(message).toMatch(/line 6.*ann@acme\.example is already the e-mail of row 1/);
  });

  it('takes the export time from its generatedAt column (one time for every row), else the file', async () => {
    const stamped = await read(write(['Employee ID,Work Email,Generated At', '1,a@acme.example,2026-11-20T02:00:00Z', '2,b@acme.example,2026-11-20T02:00:00Z']));
    expect([stamped.exportedAtFrom, new Date(stamped.exportedAt).toISOString()]).toEqual(['column', '2026-11-20T02:00:00.000Z']);
    expect(await refusal(read(write(['Employee ID,Work Email,Generated At', '1,a@acme.example,2026-11-20T02:00:00Z', '2,b@acme.example,2026-11-21T02:00:00Z'])))).toMatch(/says "2026-11-21T02:00:00Z" here and "2026-11-20T02:00:00Z" on line 2: an export is written at one time/);
    const plain = await read(write(['Employee ID,Work Email', '1,a@acme.example']));
    expect(plain.exportedAtFrom).toBe('file-modified');
    expect(await refusal(read(write(['Employee ID,Work Email', '1,a@acme.example']), { exportTime: 'column' }))).toMatch(/"exportTime": "column".*has none/);
    const json = await read(write([JSON.stringify({ generatedAt: '2026-11-22T02:00:00Z', rows: [{ employeeId: 1, email: 'a@acme.example' }] })], 'json'));
    expect([json.exportedAtFrom, new Date(json.exportedAt).toISOString(), json.employees[0]?.employeeId]).toEqual(['column', '2026-11-22T02:00:00.000Z', '1']);
  });

  it('reads a CSV export larger than the slices it is decoded in, characters cut by a slice boundary whole; refuses one not UTF-8', async () => {
    // Decoded in 1 MiB slices: 20,000 rows of ~75 bytes cross the first boundary, the header padded so that a "ü" (two
    // bytes) is cut by it.
    const location = (i: number) => `Zürich ${'ü'.repeat(20 + (i % 3))}`;
    const rows = Array.from({ length: 20_000 }, (_, i) => `${i},u${i}@acme.example,${location(i)}`);
    const textOf = (pad: number) => ['Employee ID,Work Email,Location' + ' '.repeat(pad), ...rows].join('\n');
    const pad = [...Array(64).keys()].find((n) => (Buffer.from(textOf(n))[1024 * 1024]! & 0xc0) === 0x80)!;
    const big = await read(write([textOf(pad)]));
    expect(big.employees).toHaveLength(20_000);
    expect(big.employees.filter((e, i) => e.location !== location(i) || e.email !== `u${i}@acme.example`)).toEqual([]);
    const file = path.join(dir, 'latin1.csv');
    writeFileSync(file, Buffer.concat([Buffer.from('Employee ID,Work Email,Location\n1,a@acme.example,Z'), Buffer.from([0xfc]), Buffer.from('rich\n')]));
    expect(await refusal(read(file))).toMatch(/the HR export is not UTF-8 text \| Export it as UTF-8/);
  });

  it('refuses an export without an employee id or an e-mail column, saying how to map one', async () => {
    expect(await refusal(read(write(['Name,Work Email', 'Ann,a@acme.example'])))).toMatch(/no employeeId column in the header.*"columns", e\.g\. \{"employeeId": "Work Email"\}/s);
  });
});
