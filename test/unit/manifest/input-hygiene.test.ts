import { describe, expect, it } from 'vitest';
import { isUnprintable } from '../../../src/core/printable.js';
import { validateRow } from '../../../src/manifest/validate-row.js';
import { formatProblems } from '../../../src/plan/format-plan.js';

const problemsOf = (fields: Record<string, unknown>) => {
  const result = validateRow(fields, {});
  return result.ok ? [] : result.problems;
};

describe('a look-alike e-mail address', () => {
  it('is refused naming the letter from another script', () => {
    expect(problemsOf({ action: 'deactivate', email: '\u0430lice@acme.example' })).toEqual([
      { field: 'email', message: '"\u0430lice@acme.example" is not a valid e-mail address: it contains U+0430 CYRILLIC SMALL LETTER A' },
    ]);
  });

  it('is refused naming the invisible character, wherever the address is given', () => {
    const zeroWidth = 'dana\u200b@acme.example';
    expect(problemsOf({ action: 'deactivate', email: zeroWidth })[0]?.message).toMatch(/it contains U\+200B ZERO WIDTH SPACE$/);
    expect(problemsOf({ action: 'remove', email: 'a@acme.example', transferTo: zeroWidth })[0]).toMatchObject({ field: 'transferTo', message: expect.stringMatching(/U\+200B ZERO WIDTH SPACE$/) });
    expect(problemsOf({ action: 'add-alternate-email', email: 'a@acme.example', alternateEmail: zeroWidth })[0]).toMatchObject({ field: 'alternateEmail', message: expect.stringMatching(/U\+200B ZERO WIDTH SPACE$/) });
  });

  it('is refused plainly when nothing in it is odd', () => {
    expect(problemsOf({ action: 'deactivate', email: 'no-at-sign.example' })[0]?.message).toBe('"no-at-sign.example" is not a valid e-mail address');
  });
});

describe('control characters in text sent to the service', () => {
  it.each([
    ['firstName', { action: 'update', email: 'a@acme.example', firstName: 'Bo\u0000b' }, 'U+0000 NULL'],
    ['lastName', { action: 'add', email: 'a@acme.example', lastName: 'Lee\u001b[31m' }, 'U+001B ESCAPE'],
    ['title', { action: 'add-column', sheetId: 1, title: 'Sta\u202etus', type: 'TEXT_NUMBER', index: 1 }, 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['comment', { action: 'create-discussion', sheetId: 1, comment: 'hello\u0007' }, 'U+0007 ALERT'],
  ])('refuses them in %s, naming the character and showing the value escaped', (field, fields, named) => {
    const [problem] = problemsOf(fields);
    expect(problem?.field).toBe(field);
    expect(problem?.message).toContain(`contains ${named}, a control character`);
    expect([...problem!.message].some((character) => isUnprintable(character.codePointAt(0)!))).toBe(false);
  });

  it('takes line breaks in a discussion comment and a column description', () => {
    expect(validateRow({ action: 'create-discussion', sheetId: 1, comment: 'line one\r\nline two\tend' }, {}).ok).toBe(true);
    expect(validateRow({ action: 'add-column', sheetId: 1, title: 'Notes', type: 'TEXT_NUMBER', index: 1, description: 'first\nsecond' }, {}).ok).toBe(true);
  });
});

describe('formatProblems', () => {
  it('never passes a control character of a problem to the terminal', () => {
    const text = formatProblems([{ row: 3, line: 4, field: 'email\u001b[2K', message: 'fake\rseatflow: all rows valid\u0000' }]);
    expect(text).toBe('  row 3 (line 4): email\\u001b[2K: fake\\rseatflow: all rows valid\\u0000');
  });
});
