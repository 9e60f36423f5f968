import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isUnprintable } from '../../src/core/printable.js';
import { runSeatflow } from '../helpers/run-seatflow.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the output holds a character a terminal would act on, other than the line breaks seatflow writes itself. */
const actsOnTerminal = (text: string): boolean => [...text].some((character) => character !== '\n' && isUnprintable(character.codePointAt(0)!));

describe('a manifest whose values hold terminal escape sequences, NUL bytes and look-alike letters', () => {
  const file = path.join(dir, 'hostile.csv');
  writeFileSync(
    file,
    [
      'email,action,firstName',
      // Clears the line and moves the cursor home: it would overwrite its own refusal with "all good".
      '"evil\u001b[2K\u001b[1Gall good@acme.example",deactivate,',
      'bob@acme.example,update,"Bo\u0000b\u001b]0;title\u0007"',
      '\u0430lice@acme.example,deactivate,',
      'zw\u200bsp@acme.example,deactivate,',
      '',
    ].join('\n'),
  );

  it('is refused with every value escaped and the odd characters named (exit 2)', async () => {
    const result = await runSeatflow(['plan', file, '--sim']);
    expect(result.code).toBe(2);
    expect(actsOnTerminal(result.stdout + result.stderr)).toBe(false);
    expect(result.stderr).toContain('row 1 (line 2): email: "evil\\u001b[2K\\u001b[1Gall good@acme.example" is not a valid e-mail address: it contains U+001B ESCAPE');
    expect(result.stderr).toContain('row 2 (line 3): firstName: "Bo\\u0000b\\u001b]0;title\\u0007" contains U+0000 NULL, a control character');
    expect(result.stderr).toContain('it contains U+0430 CYRILLIC SMALL LETTER A');
    expect(result.stderr).toContain('it contains U+200B ZERO WIDTH SPACE');
  });

  it('shows the same rows escaped in the plan table with --skip-invalid', async () => {
    const result = await runSeatflow(['plan', file, '--sim', '--skip-invalid']);
    expect(result.code).toBe(0);
    expect(actsOnTerminal(result.stdout + result.stderr)).toBe(false);
    expect(result.stdout).toMatch(/^1 +deactivate +evil\\u001b\[2K\\u001b\[1Gall good@acme\.example +invalid \(skipped\)/m);
    expect(result.stdout).toContain('4 invalid (skipped)');
  });
});
