import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding seatflow's package.json, whether running from src/ (tsx) or dist/. */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json')) || !existsSync(path.join(dir, 'config'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
  return dir;
}

/** seatflow's version, as its package.json says (one place: `npm version` changes it there). */
export function packageVersion(): string {
  const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof version === 'string' ? version : 'unknown';
}
