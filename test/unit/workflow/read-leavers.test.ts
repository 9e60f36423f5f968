import { describe, expect, it } from 'vitest';
import { ManifestRefusedError } from '../../../src/plan/manifest-refused-error.js';
import { readLeavers, type ReadLeaversOptions } from '../../../src/workflow/read-leavers.js';

const read = (name: string, text: string, timeZone?: string, extra: Partial<ReadLeaversOptions> = {}) =>
  readLeavers({ path: `/tmp/${name}`, content: Buffer.from(text), ...(timeZone === undefined ? {} : { timeZone }), ...extra });

/** The refusal of a file, as one text: its problems and its hint. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ManifestRefusedError);
  return `${(error as ManifestRefusedError).message}\n${(error as ManifestRefusedError).hint ?? ''}`;
}

describe('readLeavers', () => {
  it('reads an HR export: header spellings, ; delimiter, BOM, unknown columns ignored', async () => {
    const file = await read('hr.csv', '\uFEFFEmployee;E-Mail;Last Day;Manager Email\n7;Jo@Acme.example;2026-12-04;boss@acme.example\n8;al@acme.example;;\n', 'UTC');
    expect(file.leavers).toEqual([
      {
        row: 1,
        line: 2,
        email: 'jo@acme.example',
        // A last day written as a date alone ends access at the end of that day.
        leaveAt: Date.UTC(2026, 11, 5),
        leaveDate: { written: '2026-12-04', column: 'Last Day', field: 'leaveDate', dateAlone: true, readAs: 'end of last day 2026-12-04 in UTC' },
        transferTo: 'boss@acme.example',
      },
      { row: 2, line: 3, email: 'al@acme.example' },
    ]);
    expect(file.ignored).toEqual(['Employee']);
    expect(file.format).toBe('csv');
  });

  it('reads JSON (an array or {"rows": [...]}) and JSON Lines', async () => {
    const rows = [{ email: 'a@acme.example', leaveDate: '2026-12-04T00:00:00Z', transferTo: 'b@acme.example' }, { workEmail: 'c@acme.example' }];
    const expected = [
      {
        row: 1,
        line: 0,
        email: 'a@acme.example',
        leaveAt: Date.UTC(2026, 11, 4),
        leaveDate: { written: '2026-12-04T00:00:00Z', column: 'leaveDate', field: 'leaveDate', dateAlone: false, readAs: '2026-12-04T00:00:00Z' },
        transferTo: 'b@acme.example',
      },
      { row: 2, line: 0, email: 'c@acme.example' },
    ];
    expect((await read('l.json', JSON.stringify(rows))).leavers).toEqual(expected);
    expect((await read('l.json', JSON.stringify({ rows }))).leavers).toEqual(expected);
    const lines = await read('l.jsonl', rows.map((row) => JSON.stringify(row)).join('\n'));
    expect(lines.leavers.map((l) => [l.email, l.line])).toEqual([['a@acme.example', 1], ['c@acme.example', 2]]);
  });

  it('refuses a file without an e-mail column, an empty one, and broken JSON', async () => {
    await expect(read('x.csv', 'name,date\nJo,2026-01-01\n')).rejects.toThrow(/no e-mail column/);
    await expect(read('x.csv', 'email\n')).rejects.toThrow(/no leavers/);
    await expect(read('x.json', '[{"email": ')).rejects.toBeInstanceOf(ManifestRefusedError);
    await expect(read('x.jsonl', '{"email":"a@acme.example"}\nnot json\n')).rejects.toThrow(/line 2 is not JSON/);
  });

  it('names the odd character of a look-alike address, the leaver’s and the transfer target’s, shown escaped', async () => {
    const text = await refusal(read('x.csv', 'email,transferTo\nj\u0430ne@acme.example,boss@acme.example\nal@acme.example,bo\u200bss@acme.example\n'));
    expect(text).toMatch(/row 1.*is not a valid e-mail address: it contains .*CYRILLIC SMALL LETTER A/i);
    expect(text).toMatch(/row 2.*is not a valid e-mail address: it contains .*ZERO WIDTH SPACE/i);
  });

  it('names the column holding e-mails when no column is called like an e-mail, and takes it with --email-column', async () => {
    const text = 'Name,Contact\nJo,jo@acme.example\n';
    expect(await refusal(read('x.csv', text))).toMatch(/no e-mail column[\s\S]*--email-column "Contact"/);
    expect((await read('x.csv', text, undefined, { columns: { columns: { email: 'Contact' } } })).leavers[0]?.email).toBe('jo@acme.example');
    // One edit from a spelling of email: a typo, refused rather than guessed.
    expect(await refusal(read('x.csv', 'Name,Work Mail\nJo,jo@acme.example\n'))).toMatch(/column "Work Mail" is not a field of a leavers file: did you mean "email"/);
  });
});

describe('readLeavers: a column whose meaning seatflow would have to guess', () => {
  for (const column of ['Leaving Date', 'Departure Date', 'Term Date', 'Separation Date', 'Letzter Tag']) {
    it(`refuses "${column}" holding dates, naming the column and the options that say what it means`, async () => {
      const text = `email,${column}\njo@acme.example,\nal@acme.example,31.12.2026\n`;
      const message = await refusal(read('x.csv', text, 'Europe/Berlin'));
      expect(message).toContain(`column "${column}" holds dates ("31.12.2026" on line 3)`);
      expect(message).toContain(`--leave-date-column "${column}"`);
      expect(message).toContain(`--ignore-column "${column}"`);
    });
  }

  it('refuses a column nearly named like a field, with "did you mean"', async () => {
    expect(await refusal(read('x.csv', 'email,tranferTo\njo@acme.example,boss@acme.example\n'))).toMatch(/column "tranferTo" is not a field of a leavers file: did you mean "transferTo"\?/);
    expect(await refusal(read('x.csv', 'emial,leaveDate\njo@acme.example,\n'))).toMatch(/did you mean "email"/);
  });

  it('refuses an unknown column holding e-mails (a transfer target?), and the same key in JSON', async () => {
    const csv = await refusal(read('x.csv', 'email,Buddy\njo@acme.example,boss@acme.example\n'));
    expect(csv).toContain('column "Buddy" holds e-mail addresses');
    expect(csv).toContain('--transfer-column "Buddy"');
    const json = await refusal(read('x.json', JSON.stringify([{ email: 'jo@acme.example', buddy: 'boss@acme.example' }])));
    expect(json).toContain('column "buddy" holds e-mail addresses');
  });

  it('takes the column a --leave-date-column names, as a last day', async () => {
    const file = await read('x.csv', 'email,Leaving Date,Department\njo@acme.example,2026-12-04,Sales\n', 'Europe/Berlin', { columns: { columns: { leaveDate: 'leaving date' } } });
    expect(file.leavers[0]).toMatchObject({ leaveAt: Date.UTC(2026, 11, 4, 23), leaveDate: { column: 'Leaving Date', field: 'leaveDate', readAs: 'end of last day 2026-12-04 in Europe/Berlin' } });
    expect(file.ignored).toEqual(['Department']);
  });

  it('reads a date alone as the start of the day in a column that says when access ends, and --leave-at-column likewise', async () => {
    const file = await read('x.csv', 'email,Effective Date\njo@acme.example,2026-12-04\n', 'Europe/Berlin');
    expect(file.leavers[0]).toMatchObject({ leaveAt: Date.UTC(2026, 11, 3, 23), leaveDate: { field: 'leaveAt', readAs: 'start of 2026-12-04 in Europe/Berlin' } });
    const mapped = await read('x.csv', 'email,Cut-off\njo@acme.example,2026-12-04\n', 'Europe/Berlin', { columns: { columns: { leaveAt: 'Cut-off' } } });
    expect(mapped.leavers[0]?.leaveAt).toBe(Date.UTC(2026, 11, 3, 23));
  });

  it('ends a last day at offboarding.lastDayEndsAt', async () => {
    const file = await read('x.csv', 'email,lastDay\njo@acme.example,2026-12-04\n', 'Europe/Berlin', { lastDayEndsAt: '18:00' });
    expect(file.leavers[0]).toMatchObject({ leaveAt: Date.UTC(2026, 11, 4, 17), leaveDate: { readAs: '18:00 on last day 2026-12-04 in Europe/Berlin' } });
  });

  it('ignores a column said to mean nothing, and refuses an option naming a column the file lacks', async () => {
    const file = await read('x.csv', 'email,Start Date\njo@acme.example,2020-01-06\n', 'UTC', { columns: { ignore: ['start date'] } });
    expect(file.leavers[0]?.leaveAt).toBeUndefined();
    expect(file.ignored).toEqual([]);
    expect(await refusal(read('x.csv', 'email\njo@acme.example\n', 'UTC', { columns: { columns: { leaveDate: 'Leaving Date' } } }))).toMatch(/--leave-date-column "Leaving Date": the leavers file has no such column/);
  });

  it('refuses two columns that both say when the leaver leaves, and a named column that is also another field', async () => {
    expect(await refusal(read('x.csv', 'email,Last Day,Effective Date\njo@acme.example,,\n', 'UTC'))).toMatch(/"Last Day" \(leaveDate, the last day worked\) and "Effective Date" \(leaveAt, when access ends\) both say when/);
    expect(await refusal(read('x.csv', 'email,Last Day,Leaving Date\njo@acme.example,,\n', 'UTC', { columns: { columns: { leaveDate: 'Leaving Date' } } }))).toMatch(/column "Last Day" and column "Leaving Date" both mean leaveDate/);
  });

  it('does not mistake ordinary HR columns for near misses or dates', async () => {
    const text = 'Employee ID,First Name,Last Name,Email,Department,Title,Location,Status\nE1001,Jo,Lee,jo@acme.example,Sales,Lead,Berlin,Active\n';
    const file = await read('x.csv', text);
    expect(file.leavers.map((l) => l.email)).toEqual(['jo@acme.example']);
    expect(file.ignored).toEqual(['Employee ID', 'First Name', 'Last Name', 'Department', 'Title', 'Location', 'Status']);
  });
});
