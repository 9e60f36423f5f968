import { describe, expect, it } from 'vitest';
import { createColumnVocabulary, foldName } from '../../../src/manifest/columns/column-vocabulary.js';
import { HR_EXPORT_COLUMNS, INPUT_VOCABULARIES, LEAVERS_COLUMNS, MANIFEST_COLUMNS, SOURCE_OF_TRUTH_COLUMNS } from '../../../src/manifest/columns/input-vocabularies.js';
import { looksLikeDate, looksLikeEmails } from '../../../src/manifest/columns/value-shapes.js';
import { ManifestFileError } from '../../../src/manifest/manifest-file-error.js';

/** The ManifestFileError a call throws, as `message | hint`. */
function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestFileError);
    return `${(error as ManifestFileError).message} | ${(error as ManifestFileError).hint ?? ''}`;
  }
  throw new Error('expected a refusal');
}

describe('foldName', () => {
  it('folds case and drops everything but letters and digits', () => {
    expect(['E-Mail', ' email ', 'e_mail', 'E.Mail', 'EMAIL'].map(foldName)).toEqual(['email', 'email', 'email', 'email', 'email']);
    expect(foldName('Letzter Tag')).toBe('letztertag');
  });
});

describe('nearMiss', () => {
  it('finds a field one edit away (two for long names), swaps of neighbours counting as one', () => {
    expect(MANIFEST_COLUMNS.nearMiss('tranferTo')).toBe('transferTo');
    expect(MANIFEST_COLUMNS.nearMiss('transferSheet')).toBe('transferSheets');
    expect(MANIFEST_COLUMNS.nearMiss('Emial')).toBe('email');
    expect(MANIFEST_COLUMNS.nearMiss('remove from sharng')).toBe('removeFromSharing');
    expect(MANIFEST_COLUMNS.nearMiss('trnasfer shets')).toBe('transferSheets');
    expect(LEAVERS_COLUMNS.nearMiss('Manger')).toBe('transferTo');
  });

  it('leaves ordinary HR columns alone: short names, and names two edits from a short field', () => {
    for (const header of ['Team', 'Name', 'Notes', 'Department', 'Location', 'Status', 'Employee ID', 'Job Title', 'Phone', 'Start Date']) {
      expect([header, MANIFEST_COLUMNS.nearMiss(header)]).toEqual([header, undefined]);
      expect([header, LEAVERS_COLUMNS.nearMiss(header)]).toEqual([header, undefined]);
    }
    // Eight letters, two edits from "last date": not a typo of it.
    expect(LEAVERS_COLUMNS.nearMiss('Last Name')).toBeUndefined();
    // Not close enough to any leave-date spelling: refused for holding dates instead (see readHeader below).
    for (const header of ['Leaving Date', 'Departure Date', 'Term Date', 'Separation Date', 'Letzter Tag']) expect(LEAVERS_COLUMNS.nearMiss(header)).toBeUndefined();
  });
});

describe('readHeader', () => {
  it('maps spellings to fields and keeps the columns it ignores', () => {
    const reading = LEAVERS_COLUMNS.readHeader(['Employee', 'E-Mail', 'Last Day', 'Manager Email', ''], 1);
    expect(reading.fields).toEqual([undefined, 'email', 'leaveDate', 'transferTo', undefined]);
    expect(reading.ignored).toEqual(['Employee', '']);
  });

  it('refuses a near miss with "did you mean", and two columns meaning one field', () => {
    expect(refusal(() => MANIFEST_COLUMNS.readHeader(['email', 'action', 'tranferTo'], 1))).toBe(
      'column "tranferTo" is not a field of a manifest: did you mean "transferTo"? | Rename the column to transferTo; if it means something else, pass --ignore-column "tranferTo".',
    );
    expect(refusal(() => MANIFEST_COLUMNS.readHeader(['E-mail', 'email address'], 3))).toMatch(/^column "E-mail" and column "email address" both mean email/);
  });

  it('takes a column for a field when told, ignores the columns said to mean nothing, and refuses a name the header lacks', () => {
    const reading = LEAVERS_COLUMNS.readHeader(['mail', 'Leaving Date', 'tranferTo'], 1, { columns: { leaveDate: 'LEAVING DATE' }, ignore: ['tranferTo'] });
    expect(reading.fields).toEqual(['email', 'leaveDate', undefined]);
    expect(reading.ignored).toEqual([]);
    expect(refusal(() => LEAVERS_COLUMNS.readHeader(['email'], 1, { columns: { transferTo: 'Buddy' } }))).toMatch(/^--transfer-column "Buddy": the leavers file has no such column \(its columns: "email"\)/);
    expect(refusal(() => LEAVERS_COLUMNS.readHeader(['email'], 1, { ignore: ['Notes'] }))).toMatch(/^--ignore-column "Notes": the leavers file has no such column/);
    // One JSON object's keys: the choices were checked against the whole file, so an absent one is no refusal here.
    expect(LEAVERS_COLUMNS.readHeader(['email'], 1, { columns: { transferTo: 'Buddy' } }, true).fields).toEqual(['email']);
  });

  it('refuses an ignored column when a cell holds a date or an e-mail, and says what the column could be', () => {
    const reading = LEAVERS_COLUMNS.readHeader(['email', 'Term Date', 'Department'], 1);
    const cells = (...values: string[]) => (index: number) => values[index];
    expect(() => reading.checkIgnored(cells('a@acme.example', '', 'Sales'), 2)).not.toThrow();
    expect(refusal(() => reading.checkIgnored(cells('a@acme.example', '31.12.2026', 'Sales'), 3))).toBe(
      'column "Term Date" holds dates ("31.12.2026" on line 3), but it is not a field of a leavers file: seatflow will not guess what it means | ' +
        'If it is the leaver\'s last day, pass --leave-date-column "Term Date"; if it is the moment access ends, --leave-at-column "Term Date"; if it means nothing here, pass --ignore-column "Term Date".',
    );
    const manifest = MANIFEST_COLUMNS.readHeader(['email', 'action', 'Manager'], 1);
    expect(refusal(() => manifest.checkIgnored(cells('a@acme.example', 'remove', 'boss@acme.example'), 2))).toMatch(/column "Manager" holds e-mail addresses.*\| If it names a transfer target or an alternate address, call the column transferTo or alternateEmail/);
  });

  it('gives a new input kind the same rules by registering its fields (as the HR export of issue 21 will)', () => {
    const hrExport = createColumnVocabulary<'employeeId' | 'workEmail' | 'endDate'>({
      name: 'HR export',
      fields: [
        { name: 'employeeId', aliases: ['employee number', 'personnel number'] },
        { name: 'workEmail', aliases: ['work email', 'email'] },
        { name: 'endDate', aliases: ['termination date'], option: 'endDate in the policy\'s columns' },
      ],
      refuseIgnored: { date: (column) => `Map "${column}" in the policy if it is the end date` },
      ignoreHint: (column) => `list "${column}" under the policy's ignoreColumns`,
      ignoreOption: 'the policy\'s ignoreColumns',
    });
    const reading = hrExport.readHeader(['Personnel Number', 'Work E-Mail', 'Termination Date', 'Hire Date'], 1);
    expect(reading.fields).toEqual(['employeeId', 'workEmail', 'endDate', undefined]);
    expect(refusal(() => hrExport.readHeader(['Employe Number'], 1))).toMatch(/did you mean "employeeId"/);
    expect(refusal(() => reading.checkIgnored((index) => ['7', 'a@acme.example', '', '2019-04-01'][index], 2))).toMatch(/column "Hire Date" holds dates.*Map "Hire Date" in the policy/);
  });

  it('refuses a vocabulary that gives one spelling to two fields', () => {
    expect(() => createColumnVocabulary({ name: 'x', fields: [{ name: 'a', aliases: ['same'] }, { name: 'b', aliases: ['Same'] }], refuseIgnored: {}, ignoreHint: () => '', ignoreOption: '' })).toThrow(/"Same" names both a and b/);
  });

  it('registers every input kind, each spelling once', () => {
    expect(INPUT_VOCABULARIES.map((vocabulary) => vocabulary.kind.name)).toEqual(['manifest', 'leavers file', 'source-of-truth file', 'HR export']);
    // The e-mail is spelled alike in every input.
    for (const spelling of ['Email Address', 'Work Email', 'mail', 'Business Email']) {
      expect([MANIFEST_COLUMNS.fieldOf(spelling), LEAVERS_COLUMNS.fieldOf(spelling), SOURCE_OF_TRUTH_COLUMNS.fieldOf(spelling), HR_EXPORT_COLUMNS.fieldOf(spelling)]).toEqual(['email', 'email', 'email', 'email']);
    }
  });
});

describe('value shapes', () => {
  it('tells dates as HR systems write them', () => {
    for (const date of ['2026-12-04', '2026-12-04T17:00', '2026-12-04 17:00:00Z', '2026/12/04', '04.12.2026', '4.12.26', '12/04/2026', '31/12/2026', '4 Dec 2026', '4. Dezember 2026', '04-Dec-2026', 'December 4, 2026', 'Dec 4th 2026', '20261204T1700Z']) {
      expect([date, looksLikeDate(date)]).toEqual([date, true]);
    }
    for (const text of ['E1001', '12345678', 'Sales', 'left 2026-12-04', '12-34-56', '2026-13-40', '1.5', 'v2.0.1', '192.168.1.10', 'a@acme.example']) {
      expect([text, looksLikeDate(text)]).toEqual([text, false]);
    }
  });

  it('tells e-mail addresses, one or several in a cell', () => {
    for (const cell of ['a@acme.example', 'a@acme.example; b@acme.example', 'Jo Lee <jo@acme.example>']) expect([cell, looksLikeEmails(cell)]).toEqual([cell, true]);
    for (const cell of ['Sales', 'a@acme', '@acme.example', 'mail me at a@acme.example']) expect([cell, looksLikeEmails(cell)]).toEqual([cell, false]);
  });
});
