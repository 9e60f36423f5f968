import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  child = undefined;
});

/** Starts `seatflow sim` with `args` and resolves its banner once it printed "Press Ctrl-C". */
function startSim(args: string[]): Promise<string> {
  const started = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'sim', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`seatflow sim did not start: ${out}`)), 30_000);
    started.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Press Ctrl-C')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    started.once('exit', (code) => reject(new Error(`seatflow sim exited ${code}: ${out}`)));
  });
}

describe('seatflow sim --viewer-sunset', () => {
  it('serves VIEWER as before the sunset when the date is later, and says so', async () => {
    const banner = await startSim(['--viewer-sunset', '2099-01-01']);
    expect(banner).toMatch(/VIEWER seat\s+served until 2099-01-01/);
    const base = /base URL\s+(\S+)/.exec(banner)![1]!;
    const token = /admin token\s+(\S+)/.exec(banner)![1]!;
    const planId = /plan id\s+(\S+)/.exec(banner)![1]!;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const found = (await (await fetch(`${base}/users?email=jordan.lee@acme.example`, { headers })).json()) as { data: { id: number }[] };
    const userId = found.data[0]!.id;
    const answer = await fetch(`${base}/users/${userId}/plans/${planId}/downgrade`, { method: 'POST', headers, body: JSON.stringify({ seatType: 'VIEWER' }) });
    expect(answer.status).toBe(200);
  });

  it('says the seat is retired by default (the sunset of 2026-10-30 has passed)', async () => {
    const banner = await startSim([]);
    expect(banner).toMatch(/VIEWER seat\s+retired on 2026-10-30 \(CONTRIBUTOR in its place\)/);
  });

  it('refuses a value that is not a date with exit 2 and an example', async () => {
    const result = await runSeatflow(['sim', '--port', '0', '--viewer-sunset', 'soon']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--viewer-sunset: not a date: soon/);
    expect(result.stderr).toMatch(/--viewer-sunset 2027-01-01/);
  });
});
