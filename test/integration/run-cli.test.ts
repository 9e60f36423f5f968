import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rowOutcomeSchema, type RowOutcome } from '../../src/queue/row-outcome.js';
import { startReferenceServer } from '../../src/server/start-reference-server.js';
import { runSeatflow } from '../helpers/run-seatflow.js';

// `seatflow run --sim` exactly as the README's demo runs it: its own private redis-server under a data directory,
// the reference server in-process, the report on disk.
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'seatflow-run-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function jsonl(file: string): Promise<RowOutcome[]> {
  const text = await readFile(file, 'utf8');
  return text.trim().split('\n').map((line) => rowOutcomeSchema.parse(JSON.parse(line)));
}

describe('seatflow run (CLI)', () => {
  it('runs the HR offboarding demo to the end: summary, report, exit 0, private Redis stopped', async () => {
    const report = path.join(dataDir, 'report.jsonl');
    const { code, stdout } = await runSeatflow(['run', 'jobs/examples/hr-offboarding.csv', '--sim', '--report', report], { SEATFLOW_DATA_DIR: dataDir });
    expect(code).toBe(0);
    expect(stdout).toContain('SIMULATION');
    expect(stdout).toContain('7 rows: 3 succeeded, 1 unchanged, 3 skipped');
    const outcomes = await jsonl(report);
    expect(outcomes.map((o) => [o.row, o.outcome])).toEqual([
      [1, 'succeeded'],
      [2, 'succeeded'],
      [3, 'succeeded'],
      [4, 'unchanged'],
      [5, 'skipped'],
      [6, 'skipped'],
      [7, 'skipped'],
    ]);
    expect(outcomes.every((o) => o.sim === true)).toBe(true);
    // The last seatflow process out stops the private Redis, which removes its socket.
    expect(existsSync(path.join(dataDir, 'redis', 'redis.sock'))).toBe(false);
  });

  it('exits 1 when the service refuses a row the plan could not judge, and reports why', async () => {
    // alex.kim is managed by an identity provider: nothing on the wire shows it, so only the service can refuse.
    const manifest = path.join(dataDir, 'managed.csv');
    await writeFile(manifest, 'email,action\nalex.kim@acme.example,deactivate\nmarcus.chen@acme.example,deactivate\n');
    const report = path.join(dataDir, 'report.jsonl');
    const { code, stdout } = await runSeatflow(['run', manifest, '--sim', '--report', report], { SEATFLOW_DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stdout).toContain('1 succeeded, 1 failed');
    const [managed, plain] = await jsonl(report);
    expect(managed).toMatchObject({ outcome: 'failed', category: 'InvalidRequest', status: 403, errorCode: 9002, attempts: 1 });
    expect(managed?.refId).toBeTruthy();
    expect(plain).toMatchObject({ outcome: 'succeeded' });
  });

  it('finishes every ordinary leaver when some are refused (403), reports each refusal with its code, and exits 1', async () => {
    // Among ordinary leavers: externally managed (403 9002), outside the plan's domains (403 9001), a consumer
    // mail domain (refused by the plan with the service's 1359). Before issue 8, the first 403 stopped the batch.
    const manifest = path.join(dataDir, 'leavers.csv');
    await writeFile(
      manifest,
      [
        'email,action',
        'marcus.chen@acme.example,deactivate',
        'alex.kim@acme.example,deactivate',
        'chris.morgan@acme.example,deactivate',
        'jamie.fox@partner.example,deactivate',
        'noah.fischer@acme.example,deactivate',
        'sam.taylor@gmail.com,deactivate',
        'dana.whitfield@acme.example,deactivate',
        '',
      ].join('\n'),
    );
    const report = path.join(dataDir, 'leavers.jsonl');
    const { code, stdout } = await runSeatflow(['run', manifest, '--sim', '--report', report], { SEATFLOW_DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stdout).not.toMatch(/stopped/i);
    const byEmail = new Map((await jsonl(report)).map((o) => [o.email, o]));
    for (const email of ['marcus.chen@acme.example', 'chris.morgan@acme.example', 'noah.fischer@acme.example', 'dana.whitfield@acme.example']) {
      expect(byEmail.get(email)).toMatchObject({ outcome: 'succeeded' });
    }
    expect(byEmail.get('alex.kim@acme.example')).toMatchObject({ outcome: 'failed', category: 'InvalidRequest', status: 403, errorCode: 9002 });
    expect(byEmail.get('jamie.fox@partner.example')).toMatchObject({ outcome: 'failed', category: 'InvalidRequest', status: 403, errorCode: 9001 });
    expect(byEmail.get('sam.taylor@gmail.com')).toMatchObject({ outcome: 'skipped', rule: 'isp-domain', errorCode: 1359 });
  });

  it('refuses a broken manifest with exit 2 and queues nothing', async () => {
    const manifest = path.join(dataDir, 'broken.csv');
    await writeFile(manifest, 'email,action\n"jordan.lee@acme.example,deactivate\n');
    const { code, stderr, stdout } = await runSeatflow(['run', manifest, '--sim'], { SEATFLOW_DATA_DIR: dataDir });
    expect(code).toBe(2);
    expect(stderr).toContain('manifest refused');
    expect(stdout).not.toContain('queued');
  });
});

describe('seatflow worker (CLI)', () => {
  it('refuses a token the service refuses at start, with exit 2, instead of waiting for a batch to stop on it', async () => {
    const sim = await startReferenceServer({ rateLimit: 'off' });
    try {
      const { code, stderr } = await runSeatflow(['worker'], { SMARTSHEET_API_BASE: sim.url, SMARTSHEET_ACCESS_TOKEN: 'not-a-token', SEATFLOW_DATA_DIR: dataDir });
      expect(code).toBe(2);
      expect(stderr).toContain('Your Access Token is invalid');
      expect(stderr).toContain('SMARTSHEET_ACCESS_TOKEN');
      expect(stderr).not.toContain('not-a-token');
    } finally {
      await sim.close();
    }
  });
});
