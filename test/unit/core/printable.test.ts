import { describe, expect, it } from 'vitest';
import { printable, printed } from '../../../src/core/printable.js';

describe('printable', () => {
  it('writes every character a terminal would act on as an escape', () => {
    expect(printable('a\u001b[2J\u001b]0;pwned\u0007b')).toBe('a\\u001b[2J\\u001b]0;pwned\\u0007b');
    expect(printable('nul\u0000 del\u007f csi\u009b bidi\u202e')).toBe('nul\\u0000 del\\u007f csi\\u009b bidi\\u202e');
    expect(printable('one\ntwo\rthree\tfour')).toBe('one\\ntwo\\rthree\\tfour');
  });

  it('leaves ordinary text alone, letters of every script included, and is idempotent', () => {
    const text = 'Zoë Ångström — аlice@acme.example ✓';
    expect(printable(text)).toBe(text);
    expect(printable(printable('x\u001by'))).toBe(printable('x\u001by'));
  });

  it('keeps line breaks only when asked, for messages whose lines seatflow wrote', () => {
    expect(printable('line one\nline\u001b two', { keepLineBreaks: true })).toBe('line one\nline\\u001b two');
  });

  it('escapes the values of a template and not its own text', () => {
    expect(printed`Manifest: ${'evil\u001b[31m.csv'}\n`).toBe('Manifest: evil\\u001b[31m.csv\n');
  });
});
