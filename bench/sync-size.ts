/**
 * `seatflow sync` of a 100,000-employee HR export against a 100,000-user organization: the reference server in this
 * process (rate limit off), the sync as a person runs it (bin/seatflow, its own process, a private redis-server under
 * its data directory, the budget raised so the tool's own speed shows). Three runs per size:
 *   1. first sync, plan only: nothing accepted yet (1% joiners, 1% leavers with an end date);
 *   2. the same export with --apply --no-wait: the joiners and the leavers' offboarding queued, the export accepted;
 *   3. the next night's export planned against the accepted one (1% moved to another department, 1% gone, 1% new).
 * Prints per run the wall time, the calls the server answered, and the sync process's peak RSS (VmHWM, sampled from
 * /proc every 100 ms). A smaller organization is run too, so that the cost per employee shows, and with the V8 heap
 * capped the next night's plan once more, then applied (--apply --no-wait): each completes only within that bound.
 *
 *   bin/seatflow-dev bench/sync-size.ts [--employees 100000] [--small 10000] [--heap-mb 96]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO } from '../src/server/demo/demo-organization.js';
import { startReferenceServer, type RunningReferenceServer } from '../src/server/index.js';
import { watchPeakRss } from './peak-rss.js';
import { seatflowEnv } from './seatflow-env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const DAY = 86_400_000;
const DEPARTMENTS = ['Engineering', 'Sales', 'Finance', 'People', 'Operations', 'Marketing', 'Support'];

const POLICY = {
  timeZone: 'UTC',
  planId: DEMO.planId,
  exportTime: 'column',
  seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' },
  leavers: { hold: '7d', transferTo: 'dana.whitfield@acme.example' },
};

/** One employee per active generated member of the organization, and a few newcomers: CSV lines. */
function exportOf(server: RunningReferenceServer, night: 0 | 1): string[] {
  const now = server.context.clock.now();
  const day = (offset: number) => new Date(now + offset * DAY).toISOString().slice(0, 10);
  const members = [...server.context.state.users.values()].filter((user) => user.inOrg && user.status === 'ACTIVE' && !user.admin && /\.\d+@acme\.example$/.test(user.email));
  const lines = ['Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Generated At'];
  const generated = `${new Date(now + night * DAY).toISOString().slice(0, 19)}Z`;
  members.forEach((user, i) => {
    if (night === 1 && i % 100 === 25) return; // gone from the export
    const manager = members[i - (i % 10)]?.email ?? '';
    const moved = night === 1 && i % 100 === 50;
    const department = moved ? (DEPARTMENTS[i % 7] === 'Engineering' ? 'Sales' : 'Engineering') : (DEPARTMENTS[i % 7] ?? 'Sales');
    const end = i % 100 === 10 ? day(10) : '';
    lines.push([`E${i}`, user.email, 'Active', '2020-01-06', end, department, 'Specialist', manager === user.email ? '' : manager, 'Berlin', generated].join(','));
  });
  const newcomers = Math.ceil(members.length / 100);
  for (let n = 0; n < newcomers; n += 1) lines.push([`N${night}-${n}`, `new.${night}.${n}@acme.example`, 'Active', day(5), '', DEPARTMENTS[n % 7], 'Specialist', members[n * 10]?.email ?? '', 'Berlin', generated].join(','));
  return lines;
}

interface SyncRun {
  label: string;
  exportFile: string;
  args: string[];
  nodeOptions?: string;
}

async function runSync(server: RunningReferenceServer, dir: string, policy: string, run: SyncRun): Promise<void> {
  const from = server.requests.list().at(-1)?.seq ?? 0;
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'sync', run.exportFile, '--policy', policy, ...run.args], {
    cwd: ROOT,
    env: seatflowEnv(path.join(dir, 'data'), { NODE_OPTIONS: run.nodeOptions ?? '', SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: server.tokens.admin, REDIS_URL: '', SEATFLOW_RATE_LIMIT: '1000000/60', SEATFLOW_LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const peak = watchPeakRss(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
  const peakMb = peak();
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${run.label}: exit ${code}\n${stdout.slice(-2000)}\n${stderr}`);
  const planned = /Plan: (\d+) joiners, (\d+) movers, (\d+) leavers/.exec(stdout);
  const served = server.requests.list({ afterSeq: from }).length;
  console.log(
    `  ${run.label.padEnd(44)} ${seconds.toFixed(1).padStart(6)} s  ${served.toLocaleString('en-US').padStart(6)} calls  peak RSS ${peakMb.toFixed(0).padStart(4)} MB` +
      `  plan: ${planned?.[1] ?? '?'} joiners, ${planned?.[2] ?? '?'} movers, ${planned?.[3] ?? '?'} leavers`,
  );
}

/** About four in five generated users are active members: the organization that gives `employees` of them. */
const usersFor = (employees: number) => Math.ceil(employees / 0.8);

async function benchOrganization(employees: number, heapMb: number | undefined): Promise<void> {
  const server = await startReferenceServer({ users: usersFor(employees), rateLimit: 'off' });
  const dir = await mkdtemp(path.join(tmpdir(), 'seatflow-sync-bench-'));
  try {
    const policy = path.join(dir, 'lifecycle.json');
    await writeFile(policy, JSON.stringify(POLICY));
    const first = path.join(dir, 'hr-night-1.csv');
    const firstLines = exportOf(server, 0);
    await writeFile(first, `${firstLines.join('\n')}\n`);
    const second = path.join(dir, 'hr-night-2.csv');
    await writeFile(second, `${exportOf(server, 1).join('\n')}\n`);
    console.log(`sync: ${server.context.state.users.size.toLocaleString('en-US')} users in the organization, ${(firstLines.length - 1).toLocaleString('en-US')} employees in the export (reference server in-process, rate limit off)`);
    await runSync(server, dir, policy, { label: 'first sync, plan only', exportFile: first, args: [] });
    await runSync(server, dir, policy, { label: 'first sync --apply --no-wait (accepted)', exportFile: first, args: ['--apply', '--yes', '--no-wait'] });
    await runSync(server, dir, policy, { label: 'next night, plan against the accepted export', exportFile: second, args: [] });
    if (heapMb !== undefined) {
      const nodeOptions = `--max-old-space-size=${heapMb}`;
      await runSync(server, dir, policy, { label: `the same, V8 heap capped at ${heapMb} MB`, exportFile: second, args: [], nodeOptions });
      await runSync(server, dir, policy, { label: `next night --apply --no-wait, heap ${heapMb} MB`, exportFile: second, args: ['--apply', '--yes', '--no-wait'], nodeOptions });
    }
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await benchOrganization(flag('--small', 10_000), undefined);
await benchOrganization(flag('--employees', 100_000), flag('--heap-mb', 96));
