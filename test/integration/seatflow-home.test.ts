import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

// One home for state: the private Redis, reports and logs live in SEATFLOW_HOME, not in the folder a command starts in.
let work: string;
let home: string;
beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'seatflow-home-'));
  home = path.join(work, 'home');
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

async function folder(name: string): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

const demo = path.join(ROOT, 'jobs/examples/hr-offboarding.csv');
const isLogLine = (line: string) => line.startsWith('{"level"');

describe('the seatflow home (SEATFLOW_HOME)', { timeout: 120_000 }, () => {
  it('keeps batches and reports in the home, so a command started in another folder finds them', async () => {
    const ran = await runSeatflow(['run', demo, '--sim'], { SEATFLOW_HOME: home }, { cwd: await folder('a') });
    expect(ran.code).toBe(0);
    const batchId = /Batch (\w+): 3 rows queued/.exec(ran.stdout)?.[1];
    expect(batchId).toBeDefined();
    expect(ran.stdout).toContain(path.join(home, 'reports', `${batchId}-simulation.csv`));

    const status = await runSeatflow(['status'], { SEATFLOW_HOME: home }, { cwd: await folder('b') });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(batchId);
  });

  it('names an old ./.seatflow where a command starts, and says how to keep or move it', async () => {
    const old = await folder('old');
    await mkdir(path.join(old, '.seatflow'));
    const { code, stdout, stderr } = await runSeatflow(['status'], { SEATFLOW_HOME: home }, { cwd: old });
    expect(code).toBe(0);
    expect(stdout).toBe('No batches.\n');
    expect(stderr).toContain(`${path.join(old, '.seatflow')} holds state of an older seatflow`);
    expect(stderr).toContain(`export SEATFLOW_HOME=${path.join(old, '.seatflow')}`);
    expect(stderr).toContain(`mv ${path.join(old, '.seatflow')}/* ${home}/`);

    const keeping = await runSeatflow(['status'], { SEATFLOW_HOME: path.join(old, '.seatflow') }, { cwd: old });
    expect(keeping.stderr).not.toContain('older seatflow');
  });
});

describe('log lines and the human summary', () => {
  it('writes log lines to <home>/logs/seatflow.log, never between the lines a person reads, and points at the file', async () => {
    // alex.kim is managed by an identity provider: the service refuses the row, and the worker logs a warning.
    const manifest = path.join(work, 'managed.csv');
    await writeFile(manifest, 'email,action\nalex.kim@acme.example,deactivate\nmarcus.chen@acme.example,deactivate\n');
    const { code, stdout, stderr } = await runSeatflow(['run', manifest, '--sim'], { SEATFLOW_HOME: home });
    expect(code).toBe(1);
    expect(stdout).toContain('1 succeeded, 1 failed');
    expect([...stdout.split('\n'), ...stderr.split('\n')].filter(isLogLine)).toEqual([]);
    const logFile = path.join(home, 'logs', 'seatflow.log');
    expect(stderr).toContain(`seatflow: 1 warning logged in ${logFile}`);
    const logged = (await readFile(logFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { msg: string; level: number });
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'row failed', level: 40 }));
  });

  it('with --log-format json sends JSON lines to stderr and keeps stdout for the summary', async () => {
    const manifest = path.join(work, 'managed.csv');
    await writeFile(manifest, 'email,action\nalex.kim@acme.example,deactivate\n');
    const { code, stdout, stderr } = await runSeatflow(['run', manifest, '--sim', '--log-format', 'json'], { SEATFLOW_HOME: home });
    expect(code).toBe(1);
    expect(stdout.split('\n').filter(isLogLine)).toEqual([]);
    const logged = stderr.split('\n').filter(isLogLine).map((line) => JSON.parse(line) as { msg: string });
    expect(logged.map((line) => line.msg)).toContain('row failed');
    expect(stderr).not.toContain('logged in');
  });
});

describe('counts a person reads', () => {
  it('says "1 row", "1 call" and "1 leaver", never "1 rows"', async () => {
    const manifest = path.join(work, 'one.csv');
    await writeFile(manifest, 'email,action\nmarcus.chen@acme.example,deactivate\n');
    const ran = await runSeatflow(['run', manifest, '--sim'], { SEATFLOW_HOME: home });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('Plan: 1 row: 1 to change');
    // Under the plan, before anything is queued: one deactivation, one call.
    expect(ran.stdout).toMatch(/^Plan: 1 row: .*\nCalls to apply: about 1 \(about 1 s at 300 calls per 60 s, the configured rate\)\nBatch /m);
    expect(ran.stdout).toContain('Batch ');
    expect(ran.stdout).toMatch(/: 1 row queued\n/);
    expect(ran.stdout).toContain('Report (1 row, SIMULATION)');
    const leavers = path.join(work, 'leaver.csv');
    await writeFile(leavers, 'email\ntaylor.brooks@acme.example\n');
    const offboarded = await runSeatflow(['offboard', leavers, '--sim', '--dry-run'], { SEATFLOW_HOME: home });
    expect(offboarded.stdout).toContain('Plan: 1 leaver: ');
    for (const output of [ran.stdout, offboarded.stdout]) expect(output).not.toMatch(/\b1 (rows|leavers|calls|users)\b/);
  });
});
