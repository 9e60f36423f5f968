import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../../src/manifest/load-manifest.js';
import { ManifestFileError } from '../../../src/manifest/manifest-file-error.js';

const load = (content: string, file = '/data/m.csv', extra: Partial<Parameters<typeof loadManifest>[0]> = {}) =>
  loadManifest({ path: file, content, ...extra });

describe('readManifest', () => {
  it('reads CSV with a BOM, CRLF, a quoted newline, header aliases and surrounding spaces', async () => {
    const csv = '\uFEFF E-mail , ACTION ,first_name\r\n  jordan.lee@acme.example , update ,"Jordan\r\nJ."\r\n\r\nmarcus.chen@acme.example,deactivate,\r\n';
    const manifest = await load(csv);
    // The quoted line break is read as part of the name, and a name sent to the service may not hold one.
    expect(manifest.invalid).toMatchObject([{ row: 1, line: 2, problems: [{ field: 'firstName', message: '"Jordan\\r\\nJ." contains U+000D CARRIAGE RETURN, a control character: remove it (the service would store it as written)' }] }]);
    expect([...manifest.rows]).toEqual([{ row: 2, line: 5, action: { action: 'deactivate', user: { email: 'marcus.chen@acme.example' } } }]);
    expect(manifest.format).toBe('csv');
    expect(manifest.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('detects semicolon and tab delimiters', async () => {
    for (const delimiter of [';', '\t']) {
      const manifest = await load(`email_address${delimiter}action${delimiter}transfer to\njordan.lee@acme.example${delimiter}remove${delimiter}dana.whitfield@acme.example\n`);
      expect(manifest.rows.at(0)?.action).toEqual({ action: 'remove', user: { email: 'jordan.lee@acme.example' }, transferTo: { email: 'dana.whitfield@acme.example' } });
    }
  });

  it('keeps the source line of a row after a multi-line quoted cell', async () => {
    const manifest = await load('action,sheetId,comment,email\ncreate-discussion,1,"x\ny\nz",\ndeactivate,,,bad\n');
    expect(manifest.invalid[0]).toMatchObject({ row: 2, line: 5 });
  });

  it('notes columns it does not use instead of refusing them', async () => {
    const manifest = await load('Email,Department,Action\na@acme.example,Sales,deactivate\n');
    expect(manifest.warnings).toEqual(['column "Department" is not a manifest field and is ignored']);
    expect(manifest.rows).toHaveLength(1);
  });

  it('reads JSON with defaults, nested user and transferTo, and finds each row\'s line', async () => {
    const json = `{
  "version": 1,
  "defaults": { "planId": "5420192837465012" },
  "rows": [
    { "action": "downgrade", "user": { "email": "riley.owens@acme.example" } },
    {
      "action": "remove",
      "email": "jordan.lee@acme.example",
      "transferTo": { "userId": "5010000000000002" }
    },
    { "action": "deactivate", "email": "nobody" }
  ]
}`;
    const manifest = await load(json, '/data/m.json');
    expect(manifest.format).toBe('json');
    expect([...manifest.rows].map((r) => [r.row, r.line, r.action])).toEqual([
      [1, 5, { action: 'downgrade', user: { email: 'riley.owens@acme.example' }, planId: 5420192837465012, seatType: 'CONTRIBUTOR' }],
      [2, 6, { action: 'remove', user: { email: 'jordan.lee@acme.example' }, transferTo: { userId: 5010000000000002 } }],
    ]);
    expect(manifest.invalid).toMatchObject([{ row: 3, line: 11, problems: [{ field: 'email', message: '"nobody" is not a valid e-mail address' }] }]);
  });

  it('refuses unknown JSON fields with a suggestion', async () => {
    const manifest = await load('{"rows":[{"action":"remove","email":"a@acme.example","transferT":"b@acme.example"}]}', '/data/m.json');
    expect(manifest.invalid[0]?.problems[0]?.message).toBe('unknown field "transferT": did you mean "transferTo"?');
  });

  it('reads JSON Lines, skipping blank lines', async () => {
    const manifest = await load('{"action":"deactivate","email":"a@acme.example"}\n\n{"action":"enable-webhook","webhookId":"77"}\n', '/data/m.jsonl');
    expect([...manifest.rows].map((r) => [r.row, r.line, r.action.action])).toEqual([
      [1, 1, 'deactivate'],
      [2, 3, 'enable-webhook'],
    ]);
  });

  it('detects the format from the content when the extension says nothing', async () => {
    expect((await load('{"action":"deactivate","email":"a@acme.example"}\n', '/data/m')).format).toBe('jsonl');
    expect((await load('{"rows":[{"action":"deactivate","email":"a@acme.example"}]}', '/data/m')).format).toBe('json');
    const bytes = Buffer.from('{"action":"deactivate","email":"a@acme.example"}\n');
    const fromBytes = await loadManifest({ path: '/data/m', content: bytes });
    expect([fromBytes.format, fromBytes.validCount]).toEqual(['jsonl', 1]);
  });
});

describe('a CSV that is only a list of e-mails', () => {
  it('reads it without a header when --action is given, row 1 being line 1', async () => {
    const manifest = await load('a@acme.example\n\nB@acme.example\nnobody\n', '/data/leavers.csv', { defaultAction: 'deactivate' });
    expect([...manifest.rows]).toEqual([
      { row: 1, line: 1, action: { action: 'deactivate', user: { email: 'a@acme.example' } } },
      { row: 2, line: 3, action: { action: 'deactivate', user: { email: 'b@acme.example' } } },
    ]);
    expect(manifest.invalid).toMatchObject([{ row: 3, line: 4, problems: [{ field: 'email', message: '"nobody" is not a valid e-mail address' }] }]);
  });

  it('reads a single-column file whose lines end with a delimiter, with a BOM and CRLF', async () => {
    const manifest = await load('\uFEFFa@acme.example,\r\nb@acme.example,\r\n', '/data/leavers.csv', { defaultAction: 'reactivate' });
    expect([...manifest.rows].map((r) => [r.row, r.line, r.action])).toEqual([
      [1, 1, { action: 'reactivate', user: { email: 'a@acme.example' } }],
      [2, 2, { action: 'reactivate', user: { email: 'b@acme.example' } }],
    ]);
  });

  it('refuses a row with more cells in a header-less list', async () => {
    const manifest = await load('a@acme.example\nb@acme.example,remove\n', '/data/leavers.csv', { defaultAction: 'deactivate' });
    expect(manifest.invalid).toMatchObject([{ row: 2, line: 2, problems: [{ message: expect.stringMatching(/no header and is read as a list of e-mails/) }] }]);
  });

  it('still refuses it without --action, and a header-less file with more columns even with --action', async () => {
    await expect(load('a@acme.example\nb@acme.example\n')).rejects.toThrow(/line 1 looks like data, not a header/);
    await expect(load('a@acme.example,deactivate\n', '/data/m.csv', { defaultAction: 'deactivate' })).rejects.toThrow(/line 1 looks like data, not a header/);
  });
});

describe('invalid rows', () => {
  it('keep the e-mail the row gave, as written', async () => {
    const manifest = await load('email,action\n=3@acme.example,deactivate\na@acme.example,offboard\n,deactivate\nc@acme.example,deactivate\nC@acme.example,deactivate\n');
    expect(manifest.invalid.map((r) => [r.row, r.rawEmail])).toEqual([
      [1, '=3@acme.example'],
      [2, 'a@acme.example'],
      [3, undefined],
      [5, 'c@acme.example'],
    ]);
  });
});

describe('whole-file checks', () => {
  it('refuses a row that repeats another', async () => {
    const manifest = await load('email,action\na@acme.example,deactivate\nA@acme.example,deactivate\n');
    expect(manifest.invalid).toMatchObject([{ row: 2, problems: [{ message: 'repeats row 1 (duplicate row)' }] }]);
  });

  it('refuses contradictory actions on one user, and allows unrelated ones', async () => {
    const manifest = await load(
      'email,action,alternateEmail,seatType\na@acme.example,deactivate,,\na@acme.example,reactivate,,\na@acme.example,add-alternate-email,x@acme.example,\na@acme.example,add-alternate-email,y@acme.example,\nb@acme.example,downgrade,,VIEWER\nb@acme.example,upgrade,,MEMBER\nc@acme.example,deactivate,,\nc@acme.example,downgrade,,VIEWER\n',
    );
    expect(manifest.invalid.map((r) => [r.row, r.problems[0]?.message])).toEqual([
      [2, 'contradicts row 1 (deactivate): rows run in parallel, so put one of them in a later batch'],
      [6, 'contradicts row 5 (downgrade): rows run in parallel, so put one of them in a later batch'],
      [8, 'contradicts row 7 (deactivate): rows run in parallel, so put one of them in a later batch; deactivation and reactivation change the seat too'],
    ]);
  });

  it('refuses a transfer target that the same file removes or deactivates', async () => {
    const manifest = await load('email,action,transferTo\njordan.lee@acme.example,remove,dana.whitfield@acme.example\ndana.whitfield@acme.example,deactivate,\n');
    expect(manifest.invalid).toMatchObject([{ row: 1, problems: [{ field: 'transferTo', message: 'transferTo dana.whitfield@acme.example is deactivated by row 2 of the same file' }] }]);
  });

  it('names the action and e-mail of each row whose transfer target the file removes', async () => {
    const manifest = await load('email,action,transferTo\na@acme.example,remove,boss@acme.example\nboss@acme.example,remove,\nb@acme.example,remove,boss@acme.example\nc@acme.example,deactivate,\n');
    expect(manifest.invalid).toMatchObject([
      { row: 1, actionName: 'remove', rawEmail: 'a@acme.example', problems: [{ message: 'transferTo boss@acme.example is removed by row 2 of the same file' }] },
      { row: 3, actionName: 'remove', rawEmail: 'b@acme.example' },
    ]);
    expect([...manifest.rows].map((r) => r.row)).toEqual([2, 4]);
  });

  it('refuses protected accounts named by e-mail or id', async () => {
    const manifest = await load('email,userId,action\nadmin@acme.example,,deactivate\n,42,deactivate\nb@acme.example,,deactivate\n', '/data/m.csv', {
      protectedAccounts: ['Admin@acme.example', '42'],
    });
    expect(manifest.invalid.map((r) => r.row)).toEqual([1, 2]);
    expect(manifest.invalid[0]?.problems[0]?.message).toMatch(/protected account/);
  });

  it('refuses a file with more rows than guardrails.maxRows', async () => {
    await expect(load('email,action\na@acme.example,deactivate\nb@acme.example,deactivate\n', '/data/m.csv', { maxRows: 1 })).rejects.toThrow(/more than 1 row \(guardrails.maxRows\)/);
  });

  it('validates without keeping rows when asked', async () => {
    const manifest = await load('email,action\na@acme.example,deactivate\nb@acme.example,deactivate\n', '/data/m.csv', { keepRows: false });
    expect([...manifest.rows]).toEqual([]);
    expect(manifest.validCount).toBe(2);
  });
});

describe('columns a manifest must not quietly drop (one vocabulary, src/manifest/columns)', () => {
  it('refuses a CSV header that nearly names a field, as JSON refuses such a key', async () => {
    await expect(load('email,action,tranferTo\na@acme.example,remove,b@acme.example\n')).rejects.toThrow('column "tranferTo" is not a field of a manifest: did you mean "transferTo"?');
    await expect(load('email,action,transferTo,transferSheet\na@acme.example,remove,b@acme.example,true\n')).rejects.toThrow(/did you mean "transferSheets"/);
    const json = await load('{"rows":[{"action":"remove","email":"a@acme.example","transferSheet":true}]}', '/data/m.json');
    expect(json.invalid[0]?.problems[0]?.message).toBe('unknown field "transferSheet": did you mean "transferSheets"?');
  });

  it('refuses an unknown column holding e-mails (a transfer target under another name), naming it and the line', async () => {
    const error = await load('email,action,Manager\na@acme.example,remove,\nb@acme.example,remove,boss@acme.example\n').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ManifestFileError);
    expect((error as ManifestFileError).message).toContain('column "Manager" holds e-mail addresses ("boss@acme.example" on line 3)');
    expect((error as ManifestFileError).line).toBe(3);
    expect((error as ManifestFileError).hint).toContain('call the column transferTo');
  });

  it('refuses an unknown column holding dates: a manifest runs every row now', async () => {
    await expect(load('Email,Leave Date\na@acme.example,2026-12-04\n', '/data/m.csv', { defaultAction: 'deactivate' })).rejects.toThrow(/column "Leave Date" holds dates/);
  });

  it('reads such a column as nothing when --ignore-column names it', async () => {
    const manifest = await load('email,action,Manager,Leave Date\na@acme.example,deactivate,boss@acme.example,2026-12-04\n', '/data/m.csv', { ignoreColumns: ['manager', 'Leave Date'] });
    expect([...manifest.rows].map((r) => r.action)).toEqual([{ action: 'deactivate', user: { email: 'a@acme.example' } }]);
    expect(manifest.warnings).toEqual([]);
  });

  it('takes a nested user or transferTo only as {email} or {userId}, in any spelling, and refuses other keys', async () => {
    const manifest = await load('{"rows":[{"action":"remove","user":{"E-Mail":"a@acme.example"},"transferTo":{"mail":"b@acme.example"}},{"action":"remove","email":"c@acme.example","transferTo":{"emial":"d@acme.example"}}]}', '/data/m.json');
    expect([...manifest.rows].map((r) => r.action)).toEqual([{ action: 'remove', user: { email: 'a@acme.example' }, transferTo: { email: 'b@acme.example' } }]);
    expect(manifest.invalid[0]?.problems.map((p) => p.message)).toEqual(['unknown field "transferTo.emial": a transferTo is {"email": …} or {"userId": …}']);
  });
});
