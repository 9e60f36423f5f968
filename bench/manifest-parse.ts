/**
 * Parses and validates a generated 1,000,000-row CSV manifest (streaming, rows not kept) and prints rows/s and peak
 * RSS; then a file of 100,000 create-discussion rows on one sheet (every row shares one key: the whole-file clash check
 * must stay linear). Goal: ≥ 100,000 rows/s and < 300 MB. Usage: bin/seatflow-dev bench/manifest-parse.ts [ROWS] [ONE_KEY_ROWS]
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadManifest } from '../src/manifest/load-manifest.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const oneKeyRows = Number(process.argv[3] ?? 100_000);
const dir = mkdtempSync(path.join(tmpdir(), 'seatflow-bench-'));

async function generate(file: string, header: string, count: number, lineOf: (i: number) => string): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${header}\r\n`);
  for (let i = 0; i < count; i += 1) {
    if (!out.write(`${lineOf(i)}\r\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function measure(file: string, count: number): Promise<{ manifest: Awaited<ReturnType<typeof loadManifest>>; seconds: number }> {
  const started = performance.now();
  const manifest = await loadManifest({ path: file, keepRows: false, maxRows: count });
  return { manifest, seconds: (performance.now() - started) / 1000 };
}

try {
  const mixed = path.join(dir, 'manifest.csv');
  await generate(mixed, 'Email,Action,Transfer To,Seat Type,First Name', rows, (i) => {
    const kind = i % 4;
    return kind === 0 ? `user.${i}@acme.example,deactivate,,,`
      : kind === 1 ? `user.${i}@acme.example,remove,manager.${i % 977}@acme.example,,`
      : kind === 2 ? `user.${i}@acme.example,downgrade,,VIEWER,`
      : `user.${i}@acme.example,update,,,"Name ${i}"`;
  });
  const bytes = statSync(mixed).size;
  const { manifest, seconds } = await measure(mixed, rows);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(`manifest-parse: ${manifest.rowCount.toLocaleString('en-US')} rows (${(bytes / 1e6).toFixed(1)} MB CSV), ${manifest.invalid.length} invalid`);
  console.log(`  parse + validate + whole-file checks: ${seconds.toFixed(2)} s = ${Math.round(manifest.rowCount / seconds).toLocaleString('en-US')} rows/s (goal ≥ 100,000)`);
  console.log(`  peak RSS: ${peakMb.toFixed(0)} MB (goal < 300 MB)`);

  const oneKey = path.join(dir, 'one-sheet.csv');
  await generate(oneKey, 'action,sheetId,comment', oneKeyRows, (i) => `create-discussion,4000000001,note ${i}`);
  const shared = await measure(oneKey, oneKeyRows);
  console.log(
    `  ${oneKeyRows.toLocaleString('en-US')} create-discussion rows on one sheet (one shared key): ${shared.seconds.toFixed(2)} s = ` +
      `${Math.round(oneKeyRows / shared.seconds).toLocaleString('en-US')} rows/s, ${shared.manifest.invalid.length} invalid`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
