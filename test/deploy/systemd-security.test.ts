import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/run-command.js';
import { ROOT } from '../helpers/run-seatflow.js';

// The systemd units of deploy/systemd rated as systemd rates them: `systemd-analyze security --offline=yes` reads a
// unit file without a running systemd (these machines have none as PID 1). Exposure 0 is a unit that can do nothing,
// 10 one that can do everything; the units were 8.5 (EXPOSED) before their sandbox.
const ANALYZE = '/usr/bin/systemd-analyze';
const UNITS = ['seatflow-worker.service', 'seatflow-serve.service'];
const MOST = 3;

describe('deploy/systemd units, rated by systemd-analyze security', () => {
  it('finds systemd-analyze on this machine (Debian: apt-get install systemd; .ci/run and npm test install it)', () => {
    // Never skipped in silence: without the tool the units below are not rated, and this says so.
    expect(existsSync(ANALYZE), `${ANALYZE} is missing, so the units' sandbox is not checked: sudo apt-get install systemd`).toBe(true);
  });

  for (const unit of UNITS) {
    it(`rates ${unit} under ${MOST} (OK)`, { timeout: 60_000 }, async (context) => {
      if (!existsSync(ANALYZE)) context.skip(`${ANALYZE} is missing: see the test above`);
      const { code, stdout, stderr } = await runCommand(ANALYZE, ['security', '--offline=yes', '--no-pager', path.join(ROOT, 'deploy/systemd', unit)], { cwd: ROOT });
      expect(code, stderr).toBe(0);
      const exposure = /Overall exposure level for \S+: ([\d.]+)/.exec(stdout);
      expect(exposure, stdout).not.toBeNull();
      expect(Number(exposure![1]), stdout).toBeLessThan(MOST);
    });
  }
});
