import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The tests start seatflow hundreds of times (commands, workers, serve); through tsx each start transpiles and loads
 * hundreds of modules (about 2 s a command), bundled it is a third of that. So the run bundles the checkout's sources
 * once, with the package's build (scripts/bundle-cli.mjs), and bin/seatflow runs that bundle in every process the
 * tests start (SEATFLOW_DEV_BUNDLE, inherited). Built from src/ at each run: what is tested is what is checked out.
 */
export default async function bundleTheCli(): Promise<() => void> {
  const { bundleCli } = (await import(path.join(ROOT, 'scripts/bundle-cli.mjs'))) as { bundleCli: (outdir: string) => Promise<void> };
  // Inside the checkout, so the bundle finds the checkout's node_modules and its package root as dist/cli/ does.
  const cache = path.join(ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(path.join(cache, 'seatflow-test-cli-'));
  await bundleCli(outdir);
  process.env.SEATFLOW_DEV_BUNDLE = path.join(outdir, 'main.js');
  return () => rmSync(outdir, { recursive: true, force: true });
}
