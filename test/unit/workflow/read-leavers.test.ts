import { describe, expect, it } from 'vitest';
import { ManifestRefusedError } from '../../../src/plan/manifest-refused-error.js';
import { readLeavers } from '../../../src/workflow/read-leavers.js';

const read = (name: string, text: string, timeZone?: string) => readLeavers({ path: `/tmp/${name}`, content: Buffer.from(text), ...(timeZone === undefined ? {} : { timeZone }) });

describe('readLeavers', () => {
  it('reads an HR export: header spellings, ; delimiter, BOM, unknown columns ignored', async () => {
    const file = await read('hr.csv', '\uFEFFEmployee;E-Mail;Last Day;Manager Email\n7;Jo@Acme.example;2026-12-04;boss@acme.example\n8;al@acme.example;;\n', 'UTC');
    expect(file.leavers).toEqual([
      { row: 1, line: 2, email: 'jo@acme.example', leaveAt: Date.UTC(2026, 11, 4), transferTo: 'boss@acme.example' },
      { row: 2, line: 3, email: 'al@acme.example' },
    ]);
    expect(file.ignored).toEqual(['Employee']);
    expect(file.format).toBe('csv');
  });

  it('reads JSON (an array or {"rows": [...]}) and JSON Lines', async () => {
    const rows = [{ email: 'a@acme.example', leaveDate: '2026-12-04T00:00:00Z', transferTo: 'b@acme.example' }, { workEmail: 'c@acme.example' }];
    const expected = [
      { row: 1, line: 0, email: 'a@acme.example', leaveAt: Date.UTC(2026, 11, 4), transferTo: 'b@acme.example' },
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
});
