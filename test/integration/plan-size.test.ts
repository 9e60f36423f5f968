import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-seatflow.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-plan-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 150_000;
const manifest = path.join(dir, 'big.csv');
writeFileSync(manifest, `email,action\n${Array.from({ length: ROWS }, (_, i) => `user.${i}@acme.example,deactivate`).join('\n')}\n`);

/** bin/seatflow with stdout into a file (tens of megabytes) and stderr kept. */
async function seatflow(args: string[], out: string): Promise<{ code: number | null; stderr: string }> {
  const fd = openSync(out, 'w');
  try {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), ...args], {
      cwd: ROOT,
      env: { ...process.env, SMARTSHEET_ACCESS_TOKEN: '', REDIS_URL: '', SEATFLOW_DATA_DIR: dir },
      stdio: ['ignore', fd, 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    return { code: code as number | null, stderr };
  } finally {
    closeSync(fd);
  }
}

describe(`a plan of ${ROWS.toLocaleString('en-US')} rows`, () => {
  it('completes as a table (it overflowed the call stack at about 125,000)', async () => {
    const out = path.join(dir, 'plan.txt');
    const result = await seatflow(['plan', manifest, '--sim'], out);
    expect(result.stderr).not.toMatch(/RangeError|Maximum call stack/);
    expect(result.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`${ROWS} rows: 0 change, 0 no-op, 0 refused, ${ROWS} not-found, 0 conflict`);
    expect(text.split('\n').filter((line) => /^\d+ +deactivate /.test(line))).toHaveLength(ROWS);
  }, 180_000);

  it('completes as JSON on stdout, every row in it, nothing else mixed in', async () => {
    const out = path.join(dir, 'plan.json');
    const result = await seatflow(['plan', '--json', manifest, '--sim'], out);
    expect(result.code).toBe(0);
    const plan = JSON.parse(readFileSync(out, 'utf8')) as { rows: { row: number; verdict: string }[]; summary: { total: number } };
    expect(plan.rows).toHaveLength(ROWS);
    expect(plan.rows.at(-1)).toMatchObject({ row: ROWS, verdict: 'not-found' });
    expect(plan.summary.total).toBe(ROWS);
  }, 180_000);
});
