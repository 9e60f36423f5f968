import { describe, expect, it } from 'vitest';
import type { PlannedRow } from '../../../src/plan/planned-row.js';
import { batchIdOf, queueNameOf, whoOf } from '../../../src/queue/submit-batch.js';
import { rowJobId } from '../../../src/queue/row-job.js';

describe('batchIdOf', () => {
  it('gives the same id for the same manifest, target and options', () => {
    expect(batchIdOf('abc', 'https://api.smartsheet.com/2.0', { skipInvalid: true })).toBe(batchIdOf('abc', 'https://api.smartsheet.com/2.0', { skipInvalid: true }));
  });
  it('gives another id when the content, the target or an option differs', () => {
    const id = batchIdOf('abc', 'T', {});
    expect(batchIdOf('abd', 'T', {})).not.toBe(id);
    expect(batchIdOf('abc', 'U', {})).not.toBe(id);
    expect(batchIdOf('abc', 'T', { action: 'deactivate' })).not.toBe(id);
  });
  it('ignores unset and false options', () => {
    expect(batchIdOf('abc', 'T', { skipInvalid: false, action: undefined })).toBe(batchIdOf('abc', 'T', {}));
  });
});

describe('rowJobId', () => {
  it('is <batch>-<row>', () => {
    expect(rowJobId('b123', 7)).toBe('b123-7');
  });
});

describe('queueNameOf', () => {
  it('names one queue per target', () => {
    expect(queueNameOf('A')).toBe(queueNameOf('A'));
    expect(queueNameOf('A')).not.toBe(queueNameOf('B'));
  });
});

describe('whoOf', () => {
  const base = { row: 6, line: 10, verdict: 'refused', target: {} } as const;

  it('gives the resolved user of a user row', () => {
    const row: PlannedRow = { ...base, action: { action: 'deactivate', user: { email: 'jordan.lee@acme.example' } }, actionName: 'deactivate', target: { email: 'jordan.lee@acme.example', userId: 5 } };
    expect(whoOf(row)).toEqual({ email: 'jordan.lee@acme.example', userId: 5 });
  });

  it('keeps the e-mail an invalid row gave, as written', () => {
    const row: PlannedRow = { ...base, verdict: 'invalid', action: undefined, actionName: 'deactivate', rawEmail: '=3@acme.example' };
    expect(whoOf(row)).toEqual({ email: '=3@acme.example' });
  });

  it('names the subject of a row that names no user', () => {
    const column: PlannedRow = { ...base, action: { action: 'update-column', sheetId: 2094857361029384, columnTitle: 'Serial Number', title: 'Serial' }, actionName: 'update-column' };
    expect(whoOf(column)).toEqual({ subject: 'sheet 2094857361029384 column "Serial Number"' });
    const webhook: PlannedRow = { ...base, action: { action: 'delete-webhook', webhookId: 123 }, actionName: 'delete-webhook' };
    expect(whoOf(webhook)).toEqual({ subject: 'webhook 123' });
  });
});
