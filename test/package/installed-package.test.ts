import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackage, npmWarnings, QUIET_NPM, type InstalledPackage } from '../helpers/install-package.js';
import { CAN_INSTALL, NODE_VERSIONS, nodeBinary } from '../helpers/node-versions.js';
import { runCommand } from '../helpers/run-command.js';
import { ROOT } from '../helpers/run-seatflow.js';

// The published package as a user installs it (docs/operations.md, "Installing the package"): `npm pack` (whose
// prepack compiles to dist/ and pins the tested dependency versions in npm-shrinkwrap.json), unpacked, `npm ci
// --omit=dev`, linked into an empty prefix, run from an empty folder; then on each Node.js version that `engines` names
// and this machine can run (test/helpers/node-versions.ts).
const npmCli = path.join(path.dirname(path.dirname(realpathSync(execFileSync('which', ['npm'], { encoding: 'utf8' }).trim()))), 'bin', 'npm-cli.js');
let installed: InstalledPackage;
type Lock = { packages: Record<string, { version?: string; dev?: boolean; optional?: boolean }> };
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock;

beforeAll(async () => {
  installed = await installPackage();
}, 300_000);

afterAll(async () => {
  await installed.remove();
});

/** Every package folder under `dir`/node_modules, as the lock file names it (`node_modules/a/node_modules/b`). */
function installedPackages(dir: string, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  const modules = path.join(dir, 'node_modules');
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const names = entry.startsWith('@') ? readdirSync(path.join(modules, entry)).map((scoped) => `${entry}/${scoped}`) : [entry];
    for (const name of names) {
      const folder = path.join(modules, name);
      const key = `${prefix}node_modules/${name}`;
      found.set(key, (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version: string }).version);
      for (const [nested, version] of installedPackages(folder, `${key}/`)) found.set(nested, version);
    }
  }
  return found;
}

describe('the installed package', { timeout: 120_000 }, () => {
  it('holds compiled JavaScript and production dependencies only: no sources, no TypeScript runner', () => {
    expect(existsSync(path.join(installed.dir, 'dist', 'cli', 'main.js')), 'the bundled CLI').toBe(true);
    expect(existsSync(path.join(installed.dir, 'dist', 'src')), 'the unbundled modules').toBe(false);
    expect(existsSync(path.join(installed.dir, 'src'))).toBe(false);
    expect(existsSync(path.join(installed.dir, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(path.join(installed.dir, 'node_modules', 'bullmq'))).toBe(true);
  });

  it('ships npm-shrinkwrap.json, the lock file the tests ran with', async () => {
    const listing = await runCommand('tar', ['-xOzf', installed.tarball, 'package/npm-shrinkwrap.json'], { cwd: ROOT });
    expect(listing.code, 'npm-shrinkwrap.json in the tarball').toBe(0);
    expect((JSON.parse(listing.stdout) as Lock).packages).toEqual(lock.packages);
  });

  it('installs exactly the locked version of every production dependency, and nothing unlocked', () => {
    const wrong: string[] = [];
    for (const [key, version] of installedPackages(installed.dir)) {
      const locked = lock.packages[key];
      if (locked?.version !== version || locked.dev === true) wrong.push(`${key} ${version}: the lock has ${locked === undefined ? 'nothing' : `${locked.version}${locked.dev === true ? ' (dev)' : ''}`}`);
    }
    expect(wrong).toEqual([]);
    const production = Object.entries(lock.packages).filter(([key, entry]) => key !== '' && entry.dev !== true && entry.optional !== true);
    expect(production.filter(([key]) => !existsSync(path.join(installed.dir, key))).map(([key]) => key)).toEqual([]);
  });

  it('installs without a warning (no EBADENGINE) on this Node.js', () => {
    expect(installed.warnings).toEqual([]);
  });

  it('answers seatflow --help from an empty folder', async () => {
    const cwd = await mkdtemp(path.join(installed.dir, '..', 'empty-'));
    const { code, stdout } = await runCommand(installed.bin, ['--help'], { cwd });
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: seatflow');
    for (const command of ['plan', 'run', 'worker', 'offboard', 'serve', 'doctor']) expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it('runs the HR offboarding example with --sim, its state in SEATFLOW_HOME', async () => {
    const cwd = await mkdtemp(path.join(installed.dir, '..', 'empty-'));
    const home = path.join(installed.dir, '..', 'home');
    const manifest = path.join(installed.dir, 'jobs', 'examples', 'hr-offboarding.csv');
    const { code, stdout, stderr } = await runCommand(installed.bin, ['run', manifest, '--sim'], { cwd, env: { ...process.env, SEATFLOW_HOME: home, SMARTSHEET_ACCESS_TOKEN: '', REDIS_URL: '' } });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('7 rows: 3 succeeded, 1 unchanged, 3 skipped');
    expect(stdout).toContain(path.join(home, 'reports'));
    expect(await readdir(cwd)).toEqual([]);
  });
});

describe('the package on each Node.js version that engines names', { timeout: 180_000 }, () => {
  const engines = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

  it(`has Node.js ${NODE_VERSIONS.join(', ')} to run (bin/seatflow-dev test/helpers/node-versions.ts; npm test and .ci/run install them)`, () => {
    // Never skipped in silence: what is missing is named, with what installs it.
    expect(CAN_INSTALL, `Node.js builds from the npm registry exist for Linux on x64 only; this is ${process.platform} ${process.arch}: the versions below are not tried`).toBe(true);
    expect(NODE_VERSIONS.filter((version) => !existsSync(nodeBinary(version))), 'missing: run bin/seatflow-dev test/helpers/node-versions.ts').toEqual([]);
  });

  for (const version of NODE_VERSIONS) {
    it(`installs without EBADENGINE and runs the tour's first command on Node.js ${version}`, async (context) => {
      const node = nodeBinary(version);
      if (!existsSync(node)) context.skip(`Node.js ${version} is missing: see the test above`);
      expect((await runCommand(path.join(ROOT, 'node_modules/.bin/semver'), [version, '--range', engines], { cwd: ROOT })).code, `${version} within engines ${engines}`).toBe(0);
      // npm judges engines by the Node.js that runs it: this npm under that version, on the same package.
      const dryRun = await runCommand(node, [npmCli, 'ci', '--omit=dev', '--dry-run', '--prefer-offline'], { cwd: installed.dir, env: QUIET_NPM });
      expect(dryRun.code, dryRun.stderr).toBe(0);
      expect(npmWarnings(dryRun.stderr)).toEqual([]);
      // The installed package (its native addon is built on Node-API, the same for every version) run by that version.
      const cwd = await mkdtemp(path.join(installed.dir, '..', 'empty-'));
      const home = path.join(installed.dir, '..', `home-${version}`);
      const manifest = path.join(installed.dir, 'jobs', 'examples', 'hr-offboarding.csv');
      const run = await runCommand(node, [installed.bin, 'run', manifest, '--sim'], { cwd, env: { ...process.env, SEATFLOW_HOME: home, SMARTSHEET_ACCESS_TOKEN: '', REDIS_URL: '' } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('7 rows: 3 succeeded, 1 unchanged, 3 skipped');
    });
  }
});
