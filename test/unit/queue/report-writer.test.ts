import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { neutraliseCell, reportFormatOf, writeReport } from '../../../src/queue/report-writer.js';
import type { RowOutcome } from '../../../src/queue/row-outcome.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function* rows(...items: RowOutcome[]): AsyncIterable<RowOutcome> {
  yield* items;
}

const base: RowOutcome = { batchId: 'b1', row: 1, line: 2, action: 'deactivate', outcome: 'failed', attempts: 1, finishedAt: '2025-01-01T00:00:00.000Z' };

describe('neutraliseCell', () => {
  it('prefixes cells a spreadsheet would run as a formula', () => {
    for (const text of ['=1+1', '+cmd', '-2', '@SUM(A1)', '\tx', '\rx']) expect(neutraliseCell(text)).toBe(`'${text}`);
  });
  it('leaves ordinary text alone', () => {
    expect(neutraliseCell('jordan.lee@acme.example')).toBe('jordan.lee@acme.example');
  });
});

describe('writeReport', () => {
  it('writes CSV with the source row and line and neutralised cells', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'report-'));
    dirs.push(dir);
    const file = path.join(dir, 'r.csv');
    await writeReport(rows({ ...base, email: 'a@acme.example', message: '=HYPERLINK("x")', errorCode: 1359, status: 400 }), file);
    const records = parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ row: '1', line: '2', email: 'a@acme.example', outcome: 'failed', status: '400', errorCode: '1359', message: `'=HYPERLINK("x")` });
  });

  it('writes JSON Lines, one outcome per line', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'report-'));
    dirs.push(dir);
    const file = path.join(dir, 'r.jsonl');
    const count = await writeReport(rows(base, { ...base, row: 2, line: 3, outcome: 'succeeded' }), file);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowOutcome);
    expect(count).toBe(2);
    expect(lines.map((l) => [l.row, l.line, l.outcome])).toEqual([[1, 2, 'failed'], [2, 3, 'succeeded']]);
  });

  it('refuses a file that is neither .csv nor .jsonl', () => {
    expect(() => reportFormatOf('out.xlsx')).toThrow(/\.csv or \.jsonl/);
  });
});
