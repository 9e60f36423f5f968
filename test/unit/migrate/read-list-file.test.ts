import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/seatflow-error.js';
import { readSheetIds } from '../../../src/migrate/read-sheet-ids.js';
import { readUserEmails } from '../../../src/migrate/read-user-emails.js';
import { useTempDirs } from '../../helpers/temp-dirs.js';

const tempDir = useTempDirs();

async function file(name: string, text: string): Promise<string> {
  const at = path.join(tempDir('sf-list-'), name);
  await writeFile(at, text);
  return at;
}

describe('list files of a migration', () => {
  it('reads one address a line, skipping blanks, comments and repeats, lower-cased', async () => {
    expect(await readUserEmails(await file('users.txt', '# movers\nDana@acme.example\n\ndana@acme.example\r\njordan@acme.example\n'))).toEqual(['dana@acme.example', 'jordan@acme.example']);
  });

  it('reads the named column of a CSV, whatever else it holds', async () => {
    expect(await readUserEmails(await file('users.csv', 'name,E-mail\n"Lee, Jordan",jordan@acme.example\nDana,dana@acme.example\n'))).toEqual(['jordan@acme.example', 'dana@acme.example']);
    expect(await readSheetIds(await file('sheets.csv', 'Sheet ID,name\n2094857361029384,Assets\n'))).toEqual([2094857361029384]);
  });

  it('refuses every bad line at once, with its line, and a file that lists nothing', async () => {
    const bad = readSheetIds(await file('sheets.txt', '12\nabc\n9007199254740993\n'));
    await expect(bad).rejects.toBeInstanceOf(UsageError);
    await expect(bad).rejects.toThrow(/2 lines cannot be read:\n {2}line 2: abc: .*\n {2}line 3: 9007199254740993: .*too large/);
    await expect(readUserEmails(await file('empty.txt', '# nobody\n'))).rejects.toThrow(/lists no users/);
    await expect(readUserEmails('/nonexistent/users.txt')).rejects.toThrow(/users file not found/);
  });
});
