import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../../../src/manifest/load-manifest.js';
import { ManifestFileError } from '../../../src/manifest/manifest-file-error.js';
import { UsageError } from '../../../src/core/seatflow-error.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/manifests');
const tmp = mkdtempSync(path.join(tmpdir(), 'seatflow-broken-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Loads a file and returns every message it was refused with (file-level or per row); never throws anything else. */
async function refusal(file: string): Promise<string[]> {
  try {
    const manifest = await loadManifest({ path: file });
    return manifest.invalid.flatMap((row) => row.problems.map((p) => `row ${p.row} line ${p.line} ${p.field ?? ''}: ${p.message}`));
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestFileError);
    return [`file line ${(error as ManifestFileError).line}: ${(error as Error).message}`];
  }
}

describe('broken manifests', () => {
  const cases: [string, RegExp][] = [
    ['unbalanced-quote.csv', /quote opened on line 3 .*never closed/],
    ['wrong-delimiter.csv', /no column of the header.*email\|action/],
    ['missing-header.csv', /line 1 looks like data, not a header/],
    ['unknown-action.csv', /unknown action "deactivte": did you mean "deactivate"/],
    ['bad-email.csv', /"jordan.lee@acme" is not a valid e-mail address/],
    ['bad-id.csv', /"12ab34" is not an id/],
    ['unsafe-id.csv', /too large to be kept exactly/],
    ['unsafe-id.json', /too large to be kept exactly/],
    ['non-utf8.csv', /line 2 contains bytes that are not UTF-8/],
    ['empty.csv', /the file is empty/],
    ['only-header.csv', /no data rows/],
    ['broken.json', /not valid JSON/],
    ['broken.jsonl', /row 2 line 2 : not a JSON object/],
    ['wrong-version.json', /version 2 is not supported/],
  ];
  for (const [file, expected] of cases) {
    it(`refuses ${file} with a clear message`, async () => {
      const messages = await refusal(path.join(fixtures, file));
      expect(messages.join('\n')).toMatch(expected);
    });
  }

  it('lists every bad row of a file, not only the first', async () => {
    const messages = await refusal(path.join(fixtures, 'unknown-action.csv'));
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatch(/row 2 line 3 action: unknown action "offboard"/);
  });

  it('refuses a 1 MB line without reading it as a row', async () => {
    const file = path.join(tmp, 'long-line.csv');
    writeFileSync(file, `email,action,firstName\njordan.lee@acme.example,update,${'x'.repeat(1024 * 1024)}\n`);
    expect((await refusal(file)).join('\n')).toMatch(/row starting on line 2 is longer than 65,536 characters/);
  });

  it('refuses a 1 MB line in JSON Lines as a bad row', async () => {
    const file = path.join(tmp, 'long-line.jsonl');
    writeFileSync(file, `${JSON.stringify({ action: 'update', email: 'a@acme.example', firstName: 'x'.repeat(1024 * 1024) })}\n`);
    expect((await refusal(file)).join('\n')).toMatch(/row 1 line 1 : line is longer than 65,536 characters/);
  });

  it('refuses a CSV whose row has more cells than the header', async () => {
    const file = path.join(tmp, 'extra-cells.csv');
    writeFileSync(file, 'email,action\njordan.lee@acme.example,deactivate,Lee, Jordan\n');
    expect((await refusal(file)).join('\n')).toMatch(/row 1 line 2 : this row has 4 cells but the header has 2/);
  });

  it('refuses a file without an action column unless --action is given', async () => {
    const file = path.join(tmp, 'emails.csv');
    writeFileSync(file, 'Email\njordan.lee@acme.example\n');
    expect((await refusal(file)).join('\n')).toMatch(/no action column/);
    const manifest = await loadManifest({ path: file, defaultAction: 'deactivate' });
    expect([...manifest.rows].map((r) => r.action)).toEqual([{ action: 'deactivate', user: { email: 'jordan.lee@acme.example' } }]);
  });

  it('refuses a folder named as the manifest with a clear message (exit 2), not a stack trace', async () => {
    const error = await loadManifest({ path: tmp }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`manifest is a folder, not a file: ${tmp}`);
  });

  it('shows an id beyond 2^53 in JSON Lines and JSON as written, not rounded', async () => {
    const jsonl = path.join(tmp, 'big-id.jsonl');
    writeFileSync(jsonl, '{"action":"deactivate","userId":12345678901234567891}\n{"action":"deactivate","userId":4693797232062380}\n');
    const messages = await refusal(jsonl);
    expect(messages).toEqual(['row 1 line 1 userId: id 12345678901234567891 is too large to be kept exactly (beyond 2^53); check the value']);
    const json = path.join(tmp, 'big-id.json');
    writeFileSync(json, '{"version":1,"rows":[{"action":"enable-webhook","webhookId":90071992547409931}]}');
    expect(await refusal(json)).toEqual(['row 1 line 1 webhookId: id 90071992547409931 is too large to be kept exactly (beyond 2^53); check the value']);
  });

  it('refuses rows that name their own action when --action names another, instead of ignoring one', async () => {
    const file = path.join(tmp, 'mixed.csv');
    writeFileSync(file, 'email,action\njordan.lee@acme.example,remove\nmarcus.chen@acme.example,\n');
    const manifest = await loadManifest({ path: file, defaultAction: 'reactivate' });
    expect([...manifest.rows].map((r) => r.action.action)).toEqual(['reactivate']);
    expect(manifest.invalid[0]?.problems[0]?.message).toBe(
      'the row names its own action "remove", and --action reactivate was given: --action is only for files whose rows name no action; drop one of them',
    );
  });
});
