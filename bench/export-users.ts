/**
 * `seatflow export users` against a 100,000-user organization: the reference server in this process (rate limit off),
 * the export as a person runs it (bin/seatflow, its own process, a private redis-server for the request budget, the
 * budget raised so the tool's own speed shows). Prints per run the wall time, the calls (the server's request log and
 * the command's own count), what those calls take at the real service's 300 a minute, and the export process's peak
 * RSS (VmHWM, sampled from /proc every 100 ms). A smaller organization is run too, so that flat memory shows, and one
 * run caps the export's V8 heap at 48 MB: it completes only if what the export holds does not grow with the users.
 *
 *   bin/seatflow-dev bench/export-users.ts [--users 100000] [--small 10000] [--alternate-emails]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceServer, type RunningReferenceServer } from '../src/server/index.js';
import { watchPeakRss } from './peak-rss.js';
import { seatflowEnv } from './seatflow-env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const users = flag('--users', 100_000);
const small = flag('--small', 10_000);

interface ExportRun {
  label: string;
  args: string[];
  file: string;
  nodeOptions?: string;
}

async function runExport(server: RunningReferenceServer, run: ExportRun, dataDir: string): Promise<void> {
  const { label, file } = run;
  const out = path.join(dataDir, file);
  const from = server.requests.list().at(-1)?.seq ?? 0;
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'export', 'users', '--out', out, ...run.args], {
    cwd: ROOT,
    env: seatflowEnv(dataDir, { NODE_OPTIONS: run.nodeOptions ?? '', SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: server.tokens.admin, REDIS_URL: '', SEATFLOW_RATE_LIMIT: '1000000/60', SEATFLOW_LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const peak = watchPeakRss(child.pid!);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
  const peakMb = peak();
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${label}: exit ${code}\n${stderr}`);
  const served = server.requests.list({ afterSeq: from });
  const printed = /in ([\d,]+) calls, ([\d.]+) s\./.exec(stderr);
  const pageSizes = [...new Set(served.filter((entry) => entry.operation === 'listUsers' && entry.query.pageSize !== '1').map((entry) => entry.query.pageSize))];
  const { size } = await stat(out);
  const atLimitMin = served.length / 300;
  console.log(
    `  ${label.padEnd(34)} ${seconds.toFixed(1).padStart(6)} s (read+write ${printed?.[2] ?? '?'} s)  ${served.length.toLocaleString('en-US').padStart(7)} calls (printed ${printed?.[1] ?? '?'}), list pages of ${pageSizes.join('/')}` +
      `  ≈ ${atLimitMin < 90 ? `${atLimitMin.toFixed(1)} min` : `${(atLimitMin / 60).toFixed(1)} h`} at 300/min  peak RSS ${peakMb.toFixed(0)} MB  file ${(size / 1e6).toFixed(1)} MB`,
  );
}

async function benchOrganization(generated: number, runs: ExportRun[]): Promise<void> {
  const server = await startReferenceServer({ users: generated, rateLimit: 'off' });
  const dir = await mkdtemp(path.join(tmpdir(), 'seatflow-export-bench-'));
  console.log(`export users: ${server.context.state.users.size.toLocaleString('en-US')} users (reference server in-process, rate limit off)`);
  try {
    for (const run of runs) await runExport(server, run, dir);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const slim = ['--fields', 'id,email,status,seatType'];
const large: ExportRun[] = [
  { label: 'CSV, default fields (lastLogin)', args: [], file: 'users.csv' },
  { label: 'JSONL, default fields (lastLogin)', args: [], file: 'users.jsonl' },
  { label: 'CSV, id,email,status,seatType', args: slim, file: 'slim.csv' },
  { label: 'the same, V8 heap capped at 48 MB', args: slim, file: 'capped.csv', nodeOptions: '--max-old-space-size=48' },
];
if (args.includes('--alternate-emails')) large.push({ label: 'JSONL, + alternateEmails', args: ['--fields', 'id,email,status,seatType,lastLogin,alternateEmails'], file: 'alternates.jsonl' });
await benchOrganization(small, [
  { label: 'CSV, default fields (lastLogin)', args: [], file: 'users.csv' },
  { label: 'CSV, id,email,status,seatType', args: slim, file: 'slim.csv' },
]);
await benchOrganization(users, large);
