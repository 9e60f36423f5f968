import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jsonChunks, writeJson } from '../../../src/cli/write-text.js';

describe('writeJson', () => {
  const document = {
    target: 'http://127.0.0.1:1/2.0',
    rows: [
      { row: 1, action: { action: 'deactivate', user: { email: 'a@acme.example' } }, verdict: 'change', target: {}, note: undefined },
      { row: 2, action: undefined, verdict: 'invalid', problems: [{ row: 2, line: 3, message: 'x\n"y"' }], list: [] },
    ],
    empty: [],
    summary: { total: 2, nested: { deep: [1, 2, { three: 3 }] } },
    apiCalls: 3,
    skipped: undefined,
    warnings: ['a'],
    nothing: null,
  };

  it('writes exactly what JSON.stringify(document, null, 2) would, in chunks of one row', async () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await writeJson(stream, document);
    expect(text).toBe(`${JSON.stringify(document, null, 2)}\n`);
    expect([...jsonChunks(document)].filter((chunk) => chunk.includes('"row"'))).toHaveLength(2);
  });

  it('writes an empty document as JSON.stringify does', () => {
    expect([...jsonChunks({ gone: undefined })].join('')).toBe(JSON.stringify({ gone: undefined }, null, 2));
  });
});
