/**
 * Peak memory and time of `seatflow plan --json`, `plan` (the table), `submit` and `run` for large manifests, each run as its own
 * process the way a person runs it (bin/seatflow, from this checkout) and measured with GNU time (`/usr/bin/time -v`:
 * peak RSS of the seatflow process). The reference server runs as another process (`seatflow sim`, rate limit off),
 * and so does Redis (a private redis-server on a free port): neither is counted. Goal: < 400 MB peak RSS per million
 * rows.
 *
 * Rows are deactivations of `user.N@acme.example`: with USERS 0 (the default) none of them is a user of the
 * organization (every row `not-found`, what the issue measured); with USERS ≥ ROWS the sim generates that many users and
 * every row resolves to one (every row `change`).
 *
 * Each line ends with the load average (1 min) before and after the command: the machine is shared, and times follow it.
 *
 * Usage: bin/seatflow-dev bench/plan-size.ts [ROWS,ROWS...] [USERS] [REPEATS] [COMMANDS]
 *   e.g. bench/plan-size.ts 100000,1000000 0 2 plan-json,plan,submit,run   (COMMANDS default: all four)
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { seatflowEnv } from './seatflow-env.js';

const sizes = (process.argv[2] ?? '100000,1000000').split(',').map(Number);
const users = Number(process.argv[3] ?? 0);
const repeats = Number(process.argv[4] ?? 1);
const COMMANDS = {
  'plan-json': { label: 'plan --json', args: ['plan', '--json'] },
  plan: { label: 'plan', args: ['plan'] },
  submit: { label: 'submit', args: ['submit', '--json'] },
  run: { label: 'run', args: ['run'] },
} as const;
const commands = (process.argv[5] ?? 'plan-json,plan,submit,run').split(',').map((name) => {
  if (!(name in COMMANDS)) throw new Error(`unknown command ${name}: one of ${Object.keys(COMMANDS).join(', ')}`);
  return COMMANDS[name as keyof typeof COMMANDS];
});
const root = path.resolve(import.meta.dirname, '..');
const seatflow = path.join(root, 'bin/seatflow');
const dir = mkdtempSync(path.join(tmpdir(), 'seatflow-plan-size-'));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6000 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!check()) throw new Error(`${what} did not start`);
}

async function generate(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('email,action\n');
  for (let i = 0; i < rows; i += 1) if (!out.write(`user.${i}@acme.example,deactivate\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/** Runs one seatflow command under GNU time; its peak RSS (MB) and wall time (s). */
function measure(args: string[], env: NodeJS.ProcessEnv): { peakMb: number; seconds: number; code: number | null; tail: string } {
  const stats = path.join(dir, 'time.txt');
  const result = spawnSync('/usr/bin/time', ['-v', '-o', stats, process.execPath, seatflow, ...args], {
    cwd: root,
    env: seatflowEnv(dir, env),
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const text = readFileSync(stats, 'utf8');
  const peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1] ?? NaN);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(text);
  const seconds = wall === null ? NaN : Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  return { peakMb: peakKb / 1024, seconds, code: result.status, tail: result.stderr.toString().slice(-400) };
}

const simPort = await freePort();
const sim = spawn(process.execPath, [seatflow, 'sim', '--port', String(simPort), '--rate-limit', 'off', ...(users > 0 ? ['--users', String(users)] : [])], {
  cwd: root,
  env: seatflowEnv(dir),
  stdio: ['ignore', 'pipe', 'inherit'],
});
let simOut = '';
sim.stdout!.on('data', (chunk: Buffer) => (simOut += chunk.toString()));
const redisPort = await freePort();
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });

try {
  await waitUntil(() => simOut.includes('admin token'), 'seatflow sim');
  const env = {
    SMARTSHEET_API_BASE: `http://127.0.0.1:${simPort}/2.0`,
    SMARTSHEET_ACCESS_TOKEN: 'sim-admin-token',
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    SEATFLOW_LOG_LEVEL: 'warn',
  };
  console.log(`plan-size (${root}): deactivate rows, organization of ${users > 0 ? `${users.toLocaleString('en-US')} generated users (rows resolve)` : 'the demo users (rows not found)'}; ${repeats} run(s) each`);
  for (const rows of sizes) {
    const file = path.join(dir, `m-${rows}.csv`);
    await generate(file, rows);
    // A guardrail confirmation is not what is measured: --yes, and maxRows above the file.
    const flags = ['--yes'];
    for (let run = 0; run < repeats; run += 1) {
      for (const command of commands) {
        const before = loadavg()[0]!;
        // Each batch in its own queue prefix: a second submit of the same file would find the first batch.
        const m = measure([...command.args, file, ...flags], { ...env, SEATFLOW_QUEUE_PREFIX: `bench${rows}r${run}${command.args[0]}` });
        console.log(
          `  ${rows.toLocaleString('en-US').padStart(9)} rows ${command.label.padEnd(11)} peak RSS ${m.peakMb.toFixed(0).padStart(5)} MB, ${m.seconds.toFixed(1)} s, exit ${m.code}, load ${before.toFixed(1)}→${loadavg()[0]!.toFixed(1)}` +
            (m.code === 0 ? '' : `\n${m.tail}`),
        );
      }
    }
  }
} finally {
  sim.kill('SIGTERM');
  redis.kill('SIGTERM');
  await Promise.all([once(sim, 'exit'), once(redis, 'exit')]);
  rmSync(dir, { recursive: true, force: true });
}
