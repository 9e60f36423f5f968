import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../../src/cli/write-text.js';
import { loadManifest } from '../../../src/manifest/load-manifest.js';
import type { ManifestRow } from '../../../src/manifest/manifest-row.js';
import { readManifest } from '../../../src/manifest/read-manifest.js';
import { RowStore } from '../../../src/manifest/row-store.js';
import { checkGuardrails } from '../../../src/plan/guardrails.js';
import { countsOf } from '../../../src/plan/plan-rows.js';
import { PlanTally } from '../../../src/plan/plan-tally.js';
import type { PlannedRow } from '../../../src/plan/planned-row.js';
import { preflight } from '../../../src/plan/preflight.js';
import { createFakeApi, demoOrg } from './fake-api.js';

const ROWS = 6_000;
const org = demoOrg(ROWS);
const idOf = (email: string) => org.users.find((user) => user.email === email)!.id;
const DANA = 'dana.whitfield@acme.example';

/**
 * A manifest with every kind of row the pre-flight treats apart: changes, no-ops, not found, refusals, rows the file
 * refuses (duplicates, bad e-mails), rows that clash only once their users are resolved (one named by e-mail, one by
 * id), a transfer target a later row deactivates under another name (a conflict found only at the end), columns.
 */
function manifestLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i += 1) {
    const user = `user.${i}@acme.example`;
    const next = `user.${i + 1}@acme.example`;
    const row = (() => {
      switch (i % 12) {
        case 0: return { action: 'deactivate', email: user };
        case 1: return { action: 'deactivate', email: `nobody.${i}@acme.example` };
        case 2: return { action: 'reactivate', email: user };
        case 3: return { action: 'update', email: user, firstName: `Ana ${i}` };
        case 4: return { action: 'remove', email: user, transferTo: DANA };
        case 5: return { action: 'deactivate', email: 'sam.taylor@gmail.com' };
        case 6: return { action: 'deactivate', email: `not-an-email-${i}` };
        case 7: return { action: 'deactivate', email: user };
        case 8: return { action: 'reactivate', userId: idOf(`user.${i - 1}@acme.example`) };
        case 9: return { action: 'remove', email: user, transferTo: String(idOf(next)) };
        case 10: return { action: 'deactivate', email: user };
        default: return i % 24 === 11 ? { action: 'add-column', sheetId: '2094857361029384', title: `Column ${i}`, type: 'TEXT_NUMBER' } : { action: 'add', email: `new.${i}@acme.example` };
      }
    })();
    lines.push(JSON.stringify(row));
  }
  return lines;
}

const content = `${manifestLines().join('\n')}\n`;
const load = () => loadManifest({ path: '/data/m.jsonl', content });

/** The rows as the reader made them, objects never turned into JSON: the plan's input before rows were kept compact. */
async function rowsAsObjects(invalid: ReadonlySet<number>): Promise<ManifestRow[]> {
  const rows: ManifestRow[] = [];
  for await (const entry of readManifest({ path: '/data/m.jsonl', content })) if (entry.kind === 'row' && !invalid.has(entry.row.row)) rows.push(entry.row);
  return rows;
}

describe('a plan kept compact (RowStore)', () => {
  it('plans a manifest of several compressed chunks exactly as it plans the same rows held as objects', async () => {
    const manifest = await load();
    expect(manifest.rows).toBeInstanceOf(RowStore);
    const objects = await rowsAsObjects(new Set(manifest.invalid.map((row) => row.row)));
    expect(objects).toHaveLength(manifest.rows.length);
    expect((manifest.rows as RowStore<ManifestRow>).toStored().chunks.length).toBeGreaterThan(1);

    const compact = await preflight(manifest, { api: createFakeApi(org) });
    const fromObjects = await preflight({ ...manifest, rows: objects }, { api: createFakeApi(org) });
    expect(JSON.stringify(compact)).toBe(JSON.stringify(fromObjects));
    expect(compact.rows).toHaveLength(ROWS);
    expect((compact.rows as RowStore<PlannedRow>).toStored().chunks.length).toBeGreaterThan(5);
    expect([...compact.rows].map((row) => row.row)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));

    // The manifest reaches every path the rows take: each verdict, and the clashes found on resolved users.
    const { summary } = compact;
    expect(Object.values(summary).every((count) => count > 0)).toBe(true);
    expect(summary.total).toBe(ROWS);
    const rules = new Set([...compact.rows].map((row) => `${row.verdict}:${row.rule ?? ''}`));
    for (const rule of ['conflict:contradictory-actions', 'conflict:transfer-target-removed', 'invalid:invalid-row', 'refused:isp-domain', 'change:', 'not-found:']) {
      expect(rules.has(rule), rule).toBe(true);
    }
    // The reactivate named by id of the user row 8 deactivates by e-mail, and the remove whose heir row 11 deactivates.
    expect(compact.rows.at(8)).toMatchObject({ row: 9, verdict: 'conflict', rule: 'contradictory-actions', reason: 'contradicts row 8 (deactivate): rows run in parallel, so put one of them in a later batch' });
    expect(compact.rows.at(9)).toMatchObject({ row: 10, verdict: 'conflict', rule: 'transfer-target-removed', reason: `transferTo ${idOf('user.10@acme.example')} is deactivated by row 11 of the same file` });
    // The counts kept as rows were planned are the counts of the rows read back.
    const kept = countsOf(compact.rows);
    expect(kept).toBeInstanceOf(PlanTally);
    expect(kept).toEqual(countsOf([...compact.rows]));
    expect(kept.summary()).toEqual(compact.summary);
    expect(checkGuardrails(compact, { destructiveMaxCount: 10, destructiveMaxShare: 1 })).toEqual(checkGuardrails({ ...compact, rows: [...compact.rows] }, { destructiveMaxCount: 10, destructiveMaxShare: 1 }));
  });

  it('is written by plan --json as the same text as the rows as an array', async () => {
    const plan = await preflight(await load(), { api: createFakeApi(org) });
    const document = { target: 'sim', ...plan, guardrails: { needsConfirmation: false }, warnings: [] };
    expect([...jsonChunks(document)].join('')).toBe(JSON.stringify({ ...document, rows: [...plan.rows] }, null, 2));
  });
});
