import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

// A file a person names and that is not there is said the same way by every command: what it is, "not found", the
// absolute path; exit 2; no stack trace.
const missing = (name: string) => path.join(ROOT, 'no-such-folder', name);

describe('a missing file', () => {
  it.each([
    ['manifest', ['plan', missing('leavers.csv'), '--sim']],
    ['manifest', ['run', missing('leavers.csv'), '--sim']],
    ['leavers file', ['offboard', missing('leavers.csv'), '--sim']],
    ['policy file', ['reconcile', missing('policy.json'), '--sim']],
    ['config file', ['plan', 'jobs/examples/hr-offboarding.csv', '--sim', '--config', missing('policy.json')]],
    ['fixture', ['sim', '--port', '0', '--data', missing('fixture.json')]],
  ])('is said as "%s not found: PATH" (seatflow %s)', async (what, args) => {
    const { code, stderr } = await runSeatflow(args);
    expect(code).toBe(2);
    const file = args.find((arg) => arg.includes('no-such-folder'))!;
    expect(stderr.split('\n')).toContain(`seatflow: ${what} not found: ${file}`);
    expect(stderr).toMatch(/^ {2}Check the path|^ {2}Check --config|^ {2}Name a JSON fixture/m);
    expect(stderr).not.toMatch(/\bat \S+ \(/);
  });
});
