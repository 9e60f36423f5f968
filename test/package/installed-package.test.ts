import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackageSources } from '../helpers/package-sources.js';
import { runCommand } from '../helpers/run-command.js';

// The published package as a user gets it: `npm pack` (whose prepack compiles to dist/ and pins the tested dependency
// versions in npm-shrinkwrap.json), installed from the tarball into an empty prefix, run from an empty folder.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let work: string;
let installed: string;
let seatflow: string;
const quiet = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'seatflow-package-'));
  const source = path.join(work, 'source');
  await mkdir(source);
  await copyPackageSources(source, { linkModules: true });
  const packed = await runCommand(npm, ['pack', '--pack-destination', work], { cwd: source, env: quiet });
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  const prefix = path.join(work, 'prefix');
  // --prefer-offline: the versions the checkout's `npm ci` put in the npm cache are taken from there.
  const install = await runCommand(npm, ['install', '--global', '--prefix', prefix, '--prefer-offline', path.join(work, tarball!)], { cwd: work, env: quiet });
  expect(install.code, install.stderr).toBe(0);
  installed = path.join(prefix, 'lib', 'node_modules', 'seatflow');
  seatflow = path.join(prefix, 'bin', 'seatflow');
}, 300_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the installed package', { timeout: 120_000 }, () => {
  it('holds compiled JavaScript and production dependencies only: no sources, no TypeScript runner', () => {
    expect(existsSync(path.join(installed, 'dist', 'src', 'cli', 'main.js'))).toBe(true);
    expect(existsSync(path.join(installed, 'src'))).toBe(false);
    expect(existsSync(path.join(installed, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(path.join(installed, 'node_modules', 'bullmq'))).toBe(true);
  });

  it('answers seatflow --help from an empty folder', async () => {
    const cwd = await mkdtemp(path.join(work, 'empty-'));
    const { code, stdout } = await runCommand(seatflow, ['--help'], { cwd });
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: seatflow');
    for (const command of ['plan', 'run', 'worker', 'offboard', 'serve', 'doctor']) expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it('runs the HR offboarding example with --sim, its state in SEATFLOW_HOME', async () => {
    const cwd = await mkdtemp(path.join(work, 'empty-'));
    const home = path.join(work, 'home');
    const manifest = path.join(installed, 'jobs', 'examples', 'hr-offboarding.csv');
    const { code, stdout, stderr } = await runCommand(seatflow, ['run', manifest, '--sim'], { cwd, env: { ...process.env, SEATFLOW_HOME: home, SMARTSHEET_ACCESS_TOKEN: '', REDIS_URL: '' } });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('7 rows: 3 succeeded, 1 unchanged, 3 skipped');
    expect(stdout).toContain(path.join(home, 'reports'));
    expect(await readdir(cwd)).toEqual([]);
  });
});
