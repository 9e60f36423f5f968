import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { copyPackageSources } from './package-sources.js';

/**
 * The published package installed as docs/operations.md says ("Installing the package"): the sources copied to a
 * temporary folder, `npm pack` there (its prepack compiles and pins the dependencies in npm-shrinkwrap.json), the
 * tarball unpacked, `npm ci --omit=dev` in it (which installs exactly the shrinkwrap's versions: `npm install --global`
 * of a local tarball would ignore it), then `npm install --global` of that folder into an empty prefix (a link: the
 * `seatflow` command). For the package test and the benchmarks that measure the installed package.
 */
export interface InstalledPackage {
  /** `<prefix>/bin/seatflow`: the command as npm installed it. */
  bin: string;
  /** The installed package's folder (dist, jobs/examples, node_modules…). */
  dir: string;
  /** The tarball `npm pack` made. */
  tarball: string;
  /** What npm warned of while installing (see npmWarnings). */
  warnings: string[];
  remove(): Promise<void>;
}

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** npm without its audit, funding and update notices: what is left on stderr is about the install. */
export const QUIET_NPM = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

/** npm's warnings and errors in its stderr, except its notice of packages with install scripts (any native addon has one). */
export function npmWarnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /npm (warn|error)/i.test(line) && !line.includes('install-scripts'));
}

export async function installPackage(): Promise<InstalledPackage> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'sf-installed-'));
  const source = path.join(work, 'source');
  await mkdir(source);
  await copyPackageSources(source, { linkModules: true });
  await run(npm, ['pack', '--pack-destination', work], { cwd: source, env: QUIET_NPM, maxBuffer: 64 * 1024 * 1024 });
  const tarball = path.join(work, (await readdir(work)).find((name) => name.endsWith('.tgz'))!);
  const dir = path.join(work, 'seatflow');
  await mkdir(dir);
  await run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  // --prefer-offline: the versions the checkout's `npm ci` put in the npm cache are taken from there.
  const { stderr } = await run(npm, ['ci', '--omit=dev', '--prefer-offline'], { cwd: dir, env: QUIET_NPM, maxBuffer: 64 * 1024 * 1024 });
  const prefix = path.join(work, 'prefix');
  await mkdir(path.join(prefix, 'lib'), { recursive: true });
  const linked = await run(npm, ['install', '--global', '--prefix', prefix, dir], { cwd: work, env: QUIET_NPM });
  return {
    bin: path.join(prefix, 'bin', 'seatflow'),
    dir,
    tarball,
    warnings: [...npmWarnings(stderr), ...npmWarnings(linked.stderr)],
    remove: () => rm(work, { recursive: true, force: true }),
  };
}
