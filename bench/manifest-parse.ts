/**
 * Parses and validates a generated 1,000,000-row CSV manifest (streaming, rows not kept) and prints rows/s and peak
 * RSS. Goal: ≥ 100,000 rows/s and < 300 MB. Usage: bin/seatflow-dev bench/manifest-parse.ts [ROWS]
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadManifest } from '../src/manifest/load-manifest.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(path.join(tmpdir(), 'seatflow-bench-'));
const file = path.join(dir, 'manifest.csv');

async function generate(): Promise<void> {
  const out = createWriteStream(file);
  out.write('Email,Action,Transfer To,Seat Type,First Name\r\n');
  for (let i = 0; i < rows; i += 1) {
    const kind = i % 4;
    const line =
      kind === 0 ? `user.${i}@acme.example,deactivate,,,\r\n`
      : kind === 1 ? `user.${i}@acme.example,remove,manager.${i % 977}@acme.example,,\r\n`
      : kind === 2 ? `user.${i}@acme.example,downgrade,,VIEWER,\r\n`
      : `user.${i}@acme.example,update,,,"Name ${i}"\r\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

try {
  await generate();
  const bytes = statSync(file).size;
  const started = performance.now();
  const manifest = await loadManifest({ path: file, keepRows: false, maxRows: rows });
  const seconds = (performance.now() - started) / 1000;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(`manifest-parse: ${manifest.rowCount.toLocaleString('en-US')} rows (${(bytes / 1e6).toFixed(1)} MB CSV), ${manifest.invalid.length} invalid`);
  console.log(`  parse + validate + whole-file checks: ${seconds.toFixed(2)} s = ${Math.round(manifest.rowCount / seconds).toLocaleString('en-US')} rows/s (goal ≥ 100,000)`);
  console.log(`  peak RSS: ${peakMb.toFixed(0)} MB (goal < 300 MB)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
