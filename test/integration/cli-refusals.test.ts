import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runSeatflow as seatflow } from '../helpers/run-seatflow.js';

/** Input the CLI refuses before doing anything: each exits 2 with a message saying what to do, never a stack trace. */
describe('seatflow refuses bad input with exit 2', () => {
  it('plan of a folder', async () => {
    const { code, stderr } = await seatflow(['plan', 'jobs/examples', '--sim']);
    expect(code).toBe(2);
    expect(stderr).toContain(`manifest is a folder, not a file: ${path.join(ROOT, 'jobs/examples')}`);
    expect(stderr).not.toMatch(/\bat \S+ \(/);
  });

  it('an access token with a line break in it, without printing it', async () => {
    const { code, stderr } = await seatflow(['plan', 'jobs/examples/hr-offboarding.csv'], { SMARTSHEET_ACCESS_TOKEN: 'tok-abc\r\nX-Injected: 1', SMARTSHEET_API_BASE: 'http://127.0.0.1:9/2.0' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/api.accessToken: must be printable text without spaces or line breaks/);
    expect(stderr).not.toContain('tok-abc');
  });

  it('run --report with a wrong extension names --report in its hint', async () => {
    const { code, stderr } = await seatflow(['run', 'jobs/examples/hr-offboarding.csv', '--sim', '--report', 'out.txt']);
    expect(code).toBe(2);
    expect(stderr).toContain('Write --report report.csv or --report report.jsonl.');
  });

  it('submit --sim, which would queue a batch no worker can reach', async () => {
    const { code, stderr } = await seatflow(['submit', 'jobs/examples/hr-offboarding.csv', '--sim']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/submit --sim would queue a batch for a simulated service/);
    expect(stderr).toMatch(/seatflow sim.*SMARTSHEET_API_BASE/);
  });

  it('a manifest file whose rows name an action other than --action', async () => {
    const { code, stderr } = await seatflow(['plan', 'jobs/examples/hr-offboarding.csv', '--sim', '--action', 'reactivate']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/row 1 \(line 2\): action: the row names its own action "remove", and --action reactivate was given/);
  });

  it('serve on a port another program holds: says so and names --port, without a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const { code, stderr } = await seatflow(['serve', '--sim', '--port', String(port)]);
      // What it printed, if not 2: once an uncaught BullMQ error with a stack trace, exit 1.
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`the control API cannot listen on 127.0.0.1:${port}: the port is in use`);
      expect(stderr).toContain('choose another port with --port N');
      expect(stderr).not.toMatch(/\bat \S+ \(/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
