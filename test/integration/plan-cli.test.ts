import { describe, expect, it } from 'vitest';
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
});
