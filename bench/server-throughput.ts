/**
 * Reference-server throughput on loopback, rate limit off: GET /users/{id} (a simple read), GET /users?email=…
 * (100 addresses, the pre-flight's bulk lookup) and PUT /users/{id} (a mutation). The server runs in a child process
 * (one core for it, one for autocannon) with a 100,000-user organization.
 *
 *   bin/seatflow-dev bench/server-throughput.ts [--seconds 5] [--users 100000]
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startReferenceServer } from '../src/server/index.js';

/** The part of autocannon this benchmark uses (the package ships no types). */
interface CannonRequest {
  method: string;
  path?: string;
  body?: string;
  setupRequest?: (request: CannonRequest) => CannonRequest;
}
interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number; headers: Record<string, string>; requests: CannonRequest[] }) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

if (args[0] === 'serve') {
  const sim = await startReferenceServer({ rateLimit: 'off', users: flag('users', 100_000) });
  const ids = [...sim.context.state.users.values()].filter((u) => u.inOrg).slice(0, 2000).map((u) => u.id);
  const emails = [...sim.context.state.users.values()].slice(500, 600).map((u) => u.email);
  process.stdout.write(`${JSON.stringify({ url: sim.url, token: sim.tokens.admin, ids, emails })}\n`);
  process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
} else {
  const seconds = flag('seconds', 5);
  const users = flag('users', 100_000);
  const child = spawn(process.execPath, [fileURLToPath(new URL('../bin/seatflow-dev', import.meta.url)), fileURLToPath(import.meta.url), 'serve', '--users', String(users)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<{ url: string; token: string; ids: number[]; emails: string[] }>((resolve) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]!) as { url: string; token: string; ids: number[]; emails: string[] });
    });
  });
  const headers = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };
  const run = async (title: string, requests: CannonRequest[]): Promise<void> => {
    const result = await autocannon({ url: info.url, connections: 20, duration: seconds, headers, requests });
    const non2xx = result.non2xx + result.errors;
    console.log(
      `${title.padEnd(34)} ${Math.round(result.requests.average).toString().padStart(7)} req/s  ` +
        `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  errors/non-2xx ${non2xx}`,
    );
  };
  let n = 0;
  const nextId = (): number => info.ids[(n += 1) % info.ids.length]!;
  console.log(`reference server, ${users} users, rate limit off, ${seconds}s per case, 20 connections`);
  await run('GET /users/{id}', [{ method: 'GET', setupRequest: (r) => ({ ...r, path: `/2.0/users/${nextId()}` }) }]);
  await run('GET /users?email=(100 addresses)', [{ method: 'GET', path: `/2.0/users?email=${info.emails.join(',')}` }]);
  await run('PUT /users/{id}', [
    { method: 'PUT', setupRequest: (r) => ({ ...r, path: `/2.0/users/${nextId()}`, body: JSON.stringify({ title: `t${n}`, firstName: `F${n % 7}` }) }) },
  ]);
  child.kill('SIGTERM');
}
