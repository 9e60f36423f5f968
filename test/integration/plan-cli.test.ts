import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/server/start-reference-server.js';
import { runSeatflow as seatflow } from '../helpers/run-seatflow.js';

describe('seatflow plan (CLI)', () => {
  it('prints the plan of the HR offboarding example as JSON and exits 0', async () => {
    const { code, stdout } = await seatflow(['plan', 'jobs/examples/hr-offboarding.csv', '--sim', '--json']);
    expect(code).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.summary).toEqual({ total: 7, change: 3, 'no-op': 1, refused: 2, 'not-found': 1, conflict: 0, invalid: 0 });
    expect(plan.target).toMatch(/^SIMULATION/);
  });

  it('refuses a manifest with invalid rows, listing each, with exit code 2', async () => {
    const { code, stderr } = await seatflow(['plan', 'test/fixtures/manifests/bad-email.csv', '--sim']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/row 1 \(line 2\): email: "jordan.lee@acme" is not a valid e-mail address/);
    expect(stderr).toMatch(/row 2 \(line 3\): email: "not an email"/);
  });

  it('goes on with --skip-invalid and reports the invalid rows as skipped', async () => {
    const { code, stdout } = await seatflow(['plan', 'test/fixtures/manifests/bad-email.csv', '--sim', '--skip-invalid']);
    expect(code).toBe(0);
    expect(stdout).toContain('2 rows: 0 change, 0 no-op, 0 refused, 0 not-found, 0 conflict, 2 invalid (skipped)');
  });

  it('names the region on the target line and, on Smartsheet Gov, refuses deactivate and reactivate rows (docs/service.md#regions)', async () => {
    const server = await startReferenceServer({ rateLimit: 'off', users: 20, gov: true });
    const dir = await mkdtemp(path.join(tmpdir(), 'seatflow-gov-'));
    try {
      const manifest = path.join(dir, 'leavers.csv');
      await writeFile(manifest, 'email,action\nmarcus.chen@acme.example,deactivate\ntaylor.brooks@acme.example,reactivate\njordan.lee@acme.example,remove\n');
      const env = { SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: server.tokens.admin, SEATFLOW_API_REGION: 'GOV', SEATFLOW_DATA_DIR: dir };
      const { code, stdout } = await seatflow(['plan', manifest], env);
      expect(code).toBe(0);
      expect(stdout).toContain(`Target: ${server.url} (Smartsheet Gov)`);
      expect(stdout).toMatch(/deactivate\s+marcus\.chen@acme\.example\s+refused\s+\[unavailable-on-gov\] Smartsheet Gov does not offer deactivate user/);
      expect(stdout).toMatch(/reactivate\s+taylor\.brooks@acme\.example\s+refused\s+\[unavailable-on-gov\]/);
      expect(stdout).toContain('3 rows: 1 change, 0 no-op, 2 refused');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
