// Start-up of the installed package: `seatflow --help`, and a 50-row `seatflow run` from process start to exit against
// a reachable service (the reference server, in this process, unthrottled bucket) and Redis (REDIS_URL, a test
// redis-server): plan, submit, 50 deactivations, summary, report. Each measured N times, fresh queue prefix and a reset
// server per run; prints median, min and max of the wall time, and the median CPU time (user + system) of the measured
// process, which a loaded machine inflates less. The checkout's bin/seatflow (tsx) is measured beside it for reference.
// `node -e 0` is measured the same way first: the floor of any Node.js process on this machine at this load.
// Run: bin/seatflow-dev bench/startup.ts [RUNS=15] [NODE]   (on a shared machine: nice -n -10 bin/seatflow-dev …)
// NODE: the node binary the measured processes run on (default: this one), e.g. a Node 22 or 24 from
// test/helpers/node-versions.ts, where the bundle's compile cache applies (bin/seatflow).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReferenceServer } from '../src/server/start-reference-server.js';
import { deactivatableEmails } from '../test/helpers/demo-users.js';
import { startTestRedis } from '../test/helpers/redis-server.js';
import { installPackage } from './installed-package.js';
import { seatflowEnv } from './seatflow-env.js';

const RUNS = Number(process.argv[2] ?? 15);
const NODE = process.argv[3] ?? process.execPath;
const root = path.resolve(import.meta.dirname, '..');
const installed = await installPackage();
const server = await startReferenceServer({ rateLimit: { requests: 300, perSeconds: 60 } });
const redis = await startTestRedis();
const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-startup-'));
const manifest = path.join(dir, 'fifty.csv');
writeFileSync(manifest, `email,action\n${deactivatableEmails(server, 50).map((email) => `${email},deactivate`).join('\n')}\n`);

/**
 * Wall time of one process, start to exit, in seconds; refuses to count a run that failed. Asynchronous: the reference
 * server answers from this process's event loop while the measured one runs.
 */
async function timed(command: string[], env: NodeJS.ProcessEnv = {}): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  // GNU time prints the child's user and system CPU seconds on the last line of stderr.
  const child = spawn('/usr/bin/time', ['-f', '%U %S', NODE, ...command], { cwd: dir, env: seatflowEnv(path.join(dir, 'home'), env), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const wall = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}: ${stderr}`);
  const [user, system] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number) as [number, number];
  return { wall, cpu: user + system };
}

async function series(label: string, measure: () => Promise<{ wall: number; cpu: number }>): Promise<void> {
  const runs: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await measure());
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const walls = runs.map((run) => run.wall).sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(58)} median ${median(walls).toFixed(3)} s   min ${walls[0]!.toFixed(3)}   max ${walls.at(-1)!.toFixed(3)}   CPU median ${median(runs.map((run) => run.cpu)).toFixed(2)} s, min ${Math.min(...runs.map((run) => run.cpu)).toFixed(2)}   (${RUNS} runs)`,
  );
}

let run = 0;
const fiftyRows = (bin: string) => async () => {
  await fetch(`${server.origin}/_sim/reset`, { method: 'POST', headers: { authorization: `Bearer ${server.tokens.admin}` } });
  run += 1;
  return timed([bin, 'run', manifest, '--yes'], { REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: `startup${run}`, SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: server.tokens.admin });
};

console.log(`start-up, ${os.cpus().length} cores, load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')} (node ${NODE === process.execPath ? process.version : NODE})`);
await series('node -e 0 (the floor of any node process)', () => timed(['-e', '0']));
console.log('installed package (npm pack, installed as docs/operations.md says: the bundled CLI of dist/cli)');
await series('seatflow --help', () => timed([installed.bin, '--help']));
await series('seatflow run fifty.csv (50 deactivations, reachable service + Redis)', fiftyRows(installed.bin));
// The README tour's commands (each starts the embedded reference server and a private redis-server of its home).
const example = (file: string) => path.join(installed.dir, 'jobs', 'examples', file);
const tour = [
  ['plan', example('hr-offboarding.csv'), '--sim'],
  ['run', example('license-downgrade.csv'), '--sim'],
  ['offboard', example('leavers.csv'), '--sim', '--tz', 'Europe/Berlin'],
  ['doctor', '--sim'],
];
for (const args of tour) await series(`seatflow ${args[0]} … --sim (the tour)`, () => timed([installed.bin, ...args], { REDIS_URL: '', SMARTSHEET_ACCESS_TOKEN: '' }));
console.log('checkout (bin/seatflow: the TypeScript sources through tsx)');
await series('bin/seatflow --help', () => timed([path.join(root, 'bin/seatflow'), '--help']));
await series('bin/seatflow run fifty.csv', fiftyRows(path.join(root, 'bin/seatflow')));
console.log(`load average after: ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);

await server.close();
await redis.stop();
await installed.remove();
rmSync(dir, { recursive: true, force: true });
