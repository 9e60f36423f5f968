import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

// The README shows what `npm run demo` prints: that sample stays what it prints, but for what differs from run to run
// (the simulation's port, the batch id, the times, where the checkout and the home are).
const normalize = (text: string): string[] =>
  text
    .trim()
    .split('\n')
    .map((line) =>
      line
        .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT')
        .replace(/\b[0-9a-f]{13}\b/g, 'BATCH')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME')
        .replace(/(manifest: +)\S*(\/jobs\/examples\/)/, '$1…$2')
        .replace(/: \S*\/reports\//, ': …/reports/'),
    );

describe('the README', () => {
  it('shows what the demo prints', { timeout: 120_000 }, async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const sample = /`seatflow run jobs\/examples\/hr-offboarding\.csv --sim` \(`npm run demo`\) prints[^\n]*\n```\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(sample, 'the sample under "(`npm run demo`) prints"').toBeDefined();
    const home = await mkdtemp(path.join(tmpdir(), 'seatflow-demo-'));
    try {
      const { code, stdout, stderr } = await runSeatflow(['run', 'jobs/examples/hr-offboarding.csv', '--sim'], { SEATFLOW_HOME: home });
      expect(code, stderr).toBe(0);
      expect(normalize(sample!)).toEqual(normalize(stdout));
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
