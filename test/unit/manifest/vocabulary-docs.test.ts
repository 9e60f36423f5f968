import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INPUT_VOCABULARIES } from '../../../src/manifest/columns/input-vocabularies.js';
import { ROOT } from '../../helpers/run-seatflow.js';

/** The vocabulary as docs/manifests.md, "Column names", tabulates it: one row per field that has other spellings. */
function expectedRows(): string[] {
  return INPUT_VOCABULARIES.flatMap((vocabulary) =>
    vocabulary.kind.fields
      .filter((field) => (field.aliases ?? []).length > 0)
      .map((field) => `| ${vocabulary.kind.name} | \`${field.name}\`${field.option === undefined ? '' : ` (\`${field.option}\`)`} | ${(field.aliases ?? []).map((alias) => `\`${alias}\``).join(', ')} |`),
  );
}

describe('docs/manifests.md, "Column names"', () => {
  it('tabulates exactly the vocabulary seatflow reads', () => {
    const docs = readFileSync(path.join(ROOT, 'docs/manifests.md'), 'utf8').split('\n');
    const start = docs.findIndex((line) => line.includes('test/unit/manifest/vocabulary-docs.test.ts'));
    expect(start).toBeGreaterThan(-1);
    const table: string[] = [];
    for (const line of docs.slice(start + 3)) {
      if (!line.startsWith('|')) break;
      table.push(line);
    }
    expect(table).toEqual(expectedRows());
  });
});
