import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { reportLines } from '../../../src/queue/report-writer.js';
import { REPORT_COLUMNS } from '../../../src/queue/report-writer.js';
import type { RowOutcome } from '../../../src/queue/row-outcome.js';

async function* rows(...items: RowOutcome[]): AsyncIterable<RowOutcome> {
  yield* items;
}

async function text(lines: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const line of lines) out += line;
  return out;
}

const base: RowOutcome = { batchId: 'b1', row: 1, line: 2, action: 'deactivate', outcome: 'failed', attempts: 1, finishedAt: '2025-01-01T00:00:00.000Z' };

describe('reportLines', () => {
  it('writes the report columns as CSV and neutralises cells a spreadsheet would run', async () => {
    const csv = await text(reportLines(rows({ ...base, message: '=HYPERLINK("http://x")', email: '+1@acme.example', errorCode: 1355 }), 'csv'));
    const [header, record] = parse(csv) as string[][];
    expect(header).toEqual([...REPORT_COLUMNS]);
    const cell = (name: string) => record?.[REPORT_COLUMNS.indexOf(name as (typeof REPORT_COLUMNS)[number])];
    expect(cell('message')).toBe(`'=HYPERLINK("http://x")`);
    expect(cell('email')).toBe("'+1@acme.example");
    expect(cell('errorCode')).toBe('1355');
  });

  it('writes control characters of a cell escaped in the CSV a person opens, and exactly in JSON Lines', async () => {
    const message = 'refused\u001b[2J\u0000 by the service';
    const csv = await text(reportLines(rows({ ...base, message }), 'csv'));
    expect(csv).not.toContain('\u001b');
    const [, record] = parse(csv) as string[][];
    expect(record?.[REPORT_COLUMNS.indexOf('message')]).toBe('refused\\u001b[2J\\u0000 by the service');
    const jsonl = await text(reportLines(rows({ ...base, message }), 'jsonl'));
    expect((JSON.parse(jsonl) as RowOutcome).message).toBe(message);
  });

  it('writes one JSON object per line as JSON Lines, unchanged', async () => {
    const jsonl = await text(reportLines(rows(base, { ...base, row: 2, message: '=x' }), 'jsonl'));
    expect(jsonl.trimEnd().split('\n').map((line) => JSON.parse(line) as RowOutcome)).toEqual([base, { ...base, row: 2, message: '=x' }]);
  });

  it('writes only the header for a batch without outcomes yet', async () => {
    expect(await text(reportLines(rows(), 'csv'))).toBe(`${REPORT_COLUMNS.join(',')}\n`);
  });
});
