import { cp, symlink } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './run-seatflow.js';

/** What `npm pack` and the image build read from a checkout: the package's own files, sources and build settings. */
export const PACKAGE_SOURCES = ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'bin', 'src', 'jobs', 'config', 'assets', 'scripts'];

/**
 * Copies the package's sources to `dir`, so packing and building there never write into the checkout (dist/, the
 * shrinkwrap) while other tests run from it. `linkModules` links the checkout's node_modules instead of installing.
 */
export async function copyPackageSources(dir: string, options: { linkModules?: boolean } = {}): Promise<void> {
  for (const entry of PACKAGE_SOURCES) await cp(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  if (options.linkModules === true) await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}
