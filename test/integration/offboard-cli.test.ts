import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSeatflow } from '../helpers/run-seatflow.js';

// `seatflow offboard --sim` as the README shows it: its own private redis-server, the reference server in-process.
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'seatflow-offboard-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('seatflow offboard / undo / status (CLI)', () => {
  it('plans the example, deactivates who leaves today, holds the rest, writes the report; status and undo find it', async () => {
    const report = path.join(dataDir, 'leavers-report.jsonl');
    const env = { SEATFLOW_DATA_DIR: dataDir };
    const { code, stdout } = await runSeatflow(['offboard', 'jobs/examples/leavers.csv', '--sim', '--tz', 'Europe/Berlin', '--report', report], env);
    expect(code).toBe(0);
    expect(stdout).toContain('Plan: 6 leavers: 2 deactivate now, 1 on a later date, 1 already deactivated, 2 refused');
    expect(stdout).toMatch(/noah\.fischer@acme\.example\s+REFUSED \(transfer-target-invalid\)/);
    expect(stdout).toContain('SIMULATION: the embedded reference server ends with this process');
    const rows = (await readFile(report, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { email: string; phase: string; deactivate?: string });
    expect(rows.map((r) => [r.email, r.phase, r.deactivate])).toEqual([
      ['jordan.lee@acme.example', 'holding', 'succeeded'],
      ['priya.shah@acme.example', 'holding', 'succeeded'],
      ['marcus.chen@acme.example', 'scheduled', undefined],
      ['taylor.brooks@acme.example', 'holding', 'unchanged'],
      ['noah.fischer@acme.example', 'refused', 'skipped'],
      ['sam.taylor@gmail.com', 'refused', 'skipped'],
    ]);
    const id = /Offboarding (o[0-9a-f]{12}) queued/.exec(stdout)?.[1];
    expect(id).toBeDefined();

    const status = await runSeatflow(['status', id!], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/jordan\.lee@acme\.example\s+holding .* next: remove .* undo until/);
    // From a shell whose seatflow looks in another Redis (here: another home's private one), the id is not there, and
    // the message says where it looked and what finds it, rather than a bare "no batch".
    const elsewhere = path.join(dataDir, 'other-home');
    const lost = await runSeatflow(['status', id!], { SEATFLOW_HOME: elsewhere });
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain(`no batch, offboarding or HR workflow ${id!} in the private Redis of ${elsewhere} (REDIS_URL is not set)`);
    expect(lost.stderr).toContain('REDIS_URL and SEATFLOW_QUEUE_PREFIX');

    const again = path.join(dataDir, 'again.csv');
    const written = await runSeatflow(['report', id!, '--out', again], env);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`Report of offboarding ${id!} (SIMULATION): 6 leavers`);
    expect((await readFile(again, 'utf8')).split('\n')[0]).toMatch(/^row,line,email,userId,phase,reason,leaveAt,stateBefore/);

    const undo = await runSeatflow(['undo', id!, '--user', 'jordan.lee@acme.example'], { ...env, SMARTSHEET_ACCESS_TOKEN: 'x', SMARTSHEET_API_BASE: 'http://127.0.0.1:9/2.0' });
    expect(undo.code).toBe(2);
    expect(undo.stderr).toContain('was submitted for sim:');
    // Four seatflow processes, each starting the CLI: give a loaded machine room.
  }, 120_000);

  it('refuses a hold longer than the reactivation window and a date without a zone, with exit 2', async () => {
    const env = { SEATFLOW_DATA_DIR: dataDir };
    // Longer than the configured window, whatever its length: the message names the configured window.
    const config = path.join(dataDir, 'window.json');
    await writeFile(config, JSON.stringify({ offboarding: { reactivationWindowDays: 12 } }));
    const hold = await runSeatflow(['offboard', 'jobs/examples/leavers.csv', '--sim', '--tz', 'UTC', '--hold', '13d', '--config', config], env);
    expect(hold.code).toBe(2);
    expect(hold.stderr).toContain('longer than the reactivation window (12 days)');
    expect(hold.stderr).toContain('Choose --hold 12d or less (config offboarding.reactivationWindowDays is 12');
    const none = await runSeatflow(['offboard', 'jobs/examples/leavers.csv', '--sim', '--tz', 'UTC', '--hold', '0'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('the hold (0) is shorter than the minimum of 1d (config offboarding.minHoldHours)');
    expect(none.stderr).toContain('--no-undo-window');
    const zone = await runSeatflow(['offboard', 'jobs/examples/leavers.csv', '--sim', '--dry-run'], env);
    expect(zone.code).toBe(2);
    expect(zone.stderr).toMatch(/"2026-11-20" has no time zone/);
  }, 60_000);

  it('takes a hold below the minimum when --no-undo-window is said, shows it as given, and names the units in --help', async () => {
    const env = { SEATFLOW_DATA_DIR: dataDir };
    const half = await runSeatflow(['offboard', 'jobs/examples/leavers.csv', '--sim', '--tz', 'UTC', '--hold', '0.5m', '--no-undo-window', '--dry-run'], env);
    expect(half.code, half.stderr).toBe(0);
    expect(half.stdout).toMatch(/refused \(hold 30s \(--no-undo-window\)/);
    const help = await runSeatflow(['offboard', '--help'], env);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('m minutes, h hours, d days, w weeks');
    expect(help.stdout).toContain('--no-undo-window');
  }, 60_000);
});
