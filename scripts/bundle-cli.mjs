// Bundles the CLI (src/cli/main.ts) into dist/cli/: seatflow's modules and most of its
// dependencies in a few files, one chunk per command (each loaded when its command runs), so that a command starts
// without resolving and reading hundreds of modules one by one (`npm run build` runs it; docs/benchmarks.md has the
// figures). Left as packages, loaded from node_modules: what finds its own files at run time (pino's transports, the
// dashboard's assets and bull-board's, native addons) and what only `serve` uses.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXTERNAL = [
  'msgpackr-extract',
  'pino',
  'pino-pretty',
  'thread-stream',
  // What only `serve` uses (fastify itself and multipart are bundled: the reference server of --sim uses them).
  '@fastify/static',
  '@fastify/cookie',
  '@fastify/csrf-protection',
  '@fastify/formbody',
  '@fastify/helmet',
  '@fastify/rate-limit',
  '@bull-board/*',
  'htmx.org',
  'prom-client',
  'nodemailer',
  'unicode-name',
];

/**
 * Bundles the CLI from the TypeScript sources into `outdir`: dist/cli/ for the package and the image, a folder of the
 * run for the tests (which start seatflow hundreds of times). esbuild strips the types without checking them, as tsx
 * does; `npm run typecheck` (part of `npm test`) checks them.
 */
export async function bundleCli(outdir) {
  await build({
    // The parse thread of the control API is started from a file beside the chunk that starts it (parse-thread.ts).
    entryPoints: ['src/cli/main.ts', 'src/control/parse-off-thread/parse-thread-entry.ts'].map((file) => path.join(root, file)),
    outdir,
    entryNames: '[name]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external: EXTERNAL,
    // CommonJS dependencies bundled into ES modules still call require() for Node's own modules.
    banner: { js: "import { createRequire as seatflowCreateRequire } from 'node:module'; const require = seatflowCreateRequire(import.meta.url);" },
    legalComments: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli(path.join(root, 'dist/cli'));
