import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createReadProgress } from '../../../src/cli/read-progress.js';
import { loadManifest, PROGRESS_EVERY } from '../../../src/manifest/load-manifest.js';

function streamOf(tty: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream;
  (stream as { isTTY?: boolean }).isTTY = tty;
  let text = '';
  (stream as unknown as PassThrough).on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('createReadProgress', () => {
  it('rewrites one line in place on a terminal, four times a second at most, and ends it', () => {
    let clock = 0;
    const { stream, text } = streamOf(true);
    const progress = createReadProgress(stream, () => clock);
    for (let rows = 10_000; rows <= 100_000; rows += 10_000) {
      clock += 100;
      progress.onRowsRead(rows);
    }
    progress.done();
    expect(text()).toBe('\rReading the manifest: 30,000 rows (0 s)…\rReading the manifest: 60,000 rows (1 s)…\rReading the manifest: 90,000 rows (1 s)…\n');
  });

  it('writes a plain line every 10 s at most elsewhere, and nothing for a file read quicker', () => {
    let clock = 0;
    const { stream, text } = streamOf(false);
    const progress = createReadProgress(stream, () => clock);
    progress.onRowsRead(10_000);
    clock += 10_000;
    progress.onRowsRead(20_000);
    clock += 1000;
    progress.onRowsRead(30_000);
    progress.done();
    expect(text()).toBe('Reading the manifest: 20,000 rows (10 s)…\n');
  });
});

describe('loadManifest', () => {
  it(`tells the rows read every ${PROGRESS_EVERY.toLocaleString('en-US')} rows`, async () => {
    const lines = ['email,action'];
    for (let i = 0; i < 25_000; i += 1) lines.push(`user.${i}@acme.example,deactivate`);
    const told: number[] = [];
    await loadManifest({ path: '/data/m.csv', content: `${lines.join('\n')}\n`, keepRows: false, onRowsRead: (rows) => told.push(rows) });
    expect(told).toEqual([10_000, 20_000]);
  });
});
