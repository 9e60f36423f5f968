// The published package installed as a user gets it, for the benchmarks that measure it (bench/startup.ts,
// bench/quota-use.ts --installed): the sources copied to a temporary folder, `npm pack` there (its prepack compiles
// and pins the dependencies), the tarball installed with npm into an empty prefix.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyPackageSources } from '../test/helpers/package-sources.js';

export interface InstalledPackage {
  /** `<prefix>/bin/seatflow`: the command as npm installed it. */
  bin: string;
  /** The installed package's folder (jobs/examples, dist…). */
  dir: string;
  remove(): void;
}

export async function installPackage(): Promise<InstalledPackage> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'sf-installed-'));
  const source = path.join(work, 'source');
  mkdirSync(source);
  await copyPackageSources(source, { linkModules: true });
  const quiet = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  execFileSync('npm', ['pack', '--pack-destination', work], { cwd: source, env: quiet, stdio: 'ignore' });
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!;
  const prefix = path.join(work, 'prefix');
  execFileSync('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', path.join(work, tarball)], { cwd: work, env: quiet, stdio: 'ignore' });
  return {
    bin: path.join(prefix, 'bin', 'seatflow'),
    dir: path.join(prefix, 'lib', 'node_modules', 'seatflow'),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}
