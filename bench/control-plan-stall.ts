/**
 * How much a large plan posted to the control API holds up the server: POST /v1/plans with a generated ROWS-row CSV
 * while another process probes GET /healthz every 50 ms. Prints the plan's answer and time, the server's event-loop
 * delay (perf_hooks monitorEventLoopDelay, 10 ms resolution) during the plan, the slowest health probe, and the
 * server process's peak RSS. The reference server (USERS generated users, rate limit off) runs in a child process, so
 * that only the control API's own work is on this event loop.
 *
 *   bin/seatflow-dev bench/control-plan-stall.ts [--rows 290000] [--users 20000] [--max-plan-rows N]
 */
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createSmartsheetClient } from '../src/client/create-smartsheet-client.js';
import { startControlServer } from '../src/control/start-control-server.js';
import type { ControlDeps } from '../src/control/control-deps.js';
import { startReferenceServer } from '../src/server/index.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TOKEN = 'bench-control-token-0123456789abcdef-0123';
const BENCH = fileURLToPath(import.meta.url);
const DEV = fileURLToPath(new URL('../bin/seatflow-dev', import.meta.url));

if (args[0] === 'sim') {
  const sim = await startReferenceServer({ rateLimit: 'off', users: flag('users', 20_000) });
  const emails = [...sim.context.state.users.values()].filter((u) => u.inOrg && /\.\d+@/.test(u.email)).map((u) => u.email);
  process.stdout.write(`${JSON.stringify({ url: sim.url, token: sim.tokens.admin, emails })}\n`);
  process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
} else if (args[0] === 'probe') {
  // Asks every 50 ms; prints the slowest answer when told to stop.
  const url = args[1]!;
  let slowest = 0;
  let probes = 0;
  let stop = false;
  process.on('SIGTERM', () => (stop = true));
  while (!stop) {
    const started = performance.now();
    await fetch(url).then((r) => r.arrayBuffer()).catch(() => undefined);
    slowest = Math.max(slowest, performance.now() - started);
    probes += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.stdout.write(`${JSON.stringify({ slowest, probes })}\n`);
} else {
  const rows = flag('rows', 290_000);
  const users = flag('users', 20_000);
  const maxPlanRows = flag('max-plan-rows', 0);
  const sim = spawn(process.execPath, [DEV, BENCH, 'sim', '--users', String(users)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await firstLine<{ url: string; token: string; emails: string[] }>(sim.stdout);
  const api = createSmartsheetClient({ baseUrl: info.url, accessToken: info.token, integrationOrg: '', timeouts: { connectMs: 5000, headersMs: 120_000, bodyMs: 120_000 } });
  const deps: ControlDeps = {
    logger: pino({ level: 'silent' }),
    token: TOKEN,
    target: { label: 'bench', id: 'sim:bench', configured: true, sim: true },
    guardrails: { destructiveMaxCount: 25, destructiveMaxShare: 0.05, protectedAccounts: [], maxRows: 1_000_000 },
    api,
    rate: { requests: 300, perSeconds: 60 },
    // /v1/plans touches no queue; the error handler only asks whether Redis is down.
    batches: { system: {} as ControlDeps['batches']['system'], api, redis: { status: 'ready', ping: async () => 'PONG' } },
    bodyLimitBytes: 64 * 1024 * 1024,
    planTimeoutMs: 600_000,
    ...(maxPlanRows > 0 ? { maxPlanRows } : {}),
  };
  const server = await startControlServer({ deps, port: 0 });
  // Every user of the organization once, then addresses it does not know (not found): the pre-flight looks up each.
  const lines = ['email,action'];
  for (let i = 0; i < rows; i += 1) lines.push(`${info.emails[i] ?? `leaver.${i}@acme.example`},deactivate`);
  const body = `${lines.join('\n')}\n`;
  const probe = spawn(process.execPath, [DEV, BENCH, 'probe', `${server.url}/healthz`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const probeResult = firstLine<{ slowest: number; probes: number }>(probe.stdout);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the probe's own start-up (tsx) is not measured
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/plans`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' }, body });
  const text = await response.text();
  const seconds = (performance.now() - started) / 1000;
  delay.disable();
  probe.kill('SIGTERM');
  const { slowest, probes } = await probeResult;
  const summary = response.ok ? JSON.stringify((JSON.parse(text) as { summary: unknown }).summary) : text.slice(0, 300);
  console.log(`control-plan-stall: POST /v1/plans, ${rows.toLocaleString('en-US')} rows (${(body.length / 1e6).toFixed(1)} MB CSV), organization of ${users.toLocaleString('en-US')} users${maxPlanRows > 0 ? `, control.maxPlanRows ${maxPlanRows}` : ''}`);
  console.log(`  answer ${response.status} in ${seconds.toFixed(2)} s: ${summary}`);
  console.log(`  event-loop delay during the plan: max ${(delay.max / 1e6).toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, mean ${(delay.mean / 1e6).toFixed(1)} ms`);
  console.log(`  slowest GET /healthz meanwhile (another process, every 50 ms, ${probes} probes): ${slowest.toFixed(0)} ms`);
  console.log(`  server process peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  await server.close();
  await api.close();
  sim.kill('SIGTERM');
}

function firstLine<T>(stream: NodeJS.ReadableStream): Promise<T> {
  return new Promise((resolve) => {
    let text = '';
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]!) as T);
    });
  });
}
