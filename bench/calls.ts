/**
 * Calls per person of every workflow against the fewest it could make (issue 30): each workflow runs against the
 * reference server (in this process, rate limit off: calls are counted, not timed) and a private redis-server, and its
 * calls are counted from the server's request log, from the start of its plan until nothing of it is due. Prints, per
 * workflow, the calls per person, the minimum (bulk reads spread over the people) and the ratio, which the issue asks
 * to be at most 1.25; then where the calls went (per operation, per person). Exit 1 when a ratio is over 1.25.
 * Usage: bin/seatflow-dev bench/calls.ts [PEOPLE] [--only TEXT]   (default 500 people)
 */
import { startTestRedis } from '../test/helpers/redis-server.js';
import { load, openCallEnv } from './calls/call-env.js';
import type { CallScenario, ScenarioResult } from './calls/call-scenario.js';
import { CALL_SCENARIOS } from './calls/scenarios.js';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const people = Number(args.find((arg, i) => /^\d+$/.test(arg) && args[i - 1] !== '--only') ?? 500);
const BOUND = 1.25;

async function measure(scenario: CallScenario): Promise<ScenarioResult & { seconds: number }> {
  const redis = await startTestRedis();
  const env = await openCallEnv(redis, scenario.organization(people));
  try {
    const started = performance.now();
    const result = await scenario.run(env, people);
    return { ...result, seconds: (performance.now() - started) / 1000 };
  } finally {
    await env.close();
    await redis.stop();
  }
}

console.log(`calls per person, ${people} people a workflow, counted from the reference server's request log (load ${load()})`);
console.log(`${'workflow'.padEnd(40)} ${'calls'.padStart(6)} ${'per person'.padStart(10)} ${'minimum'.padStart(8)} ${'ratio'.padStart(6)}   s`);
const over: string[] = [];
for (const scenario of CALL_SCENARIOS) {
  if (only !== undefined && !scenario.name.includes(only)) continue;
  const result = await measure(scenario);
  const { minimum } = result;
  const floor = minimum.perPerson * result.people + minimum.fixed;
  const ratio = result.calls.length / floor;
  if (ratio > BOUND) over.push(scenario.name);
  const perPerson = (n: number) => (n / result.people).toFixed(2);
  console.log(`${scenario.name.padEnd(40)} ${String(result.calls.length).padStart(6)} ${perPerson(result.calls.length).padStart(10)} ${perPerson(floor).padStart(8)} ${ratio.toFixed(2).padStart(6)}   ${result.seconds.toFixed(1)}  (load ${load()})`);
  const byOperation = new Map<string, number>();
  for (const call of result.calls) byOperation.set(call.operation, (byOperation.get(call.operation) ?? 0) + 1);
  const spent = [...byOperation].sort((a, b) => b[1] - a[1]).map(([operation, n]) => `${operation} ${n}`);
  console.log(`    calls: ${spent.join(', ')}`);
  console.log(`    minimum ${minimum.perPerson.toFixed(2)} a person + ${minimum.fixed} bulk: ${minimum.why}${result.note === undefined ? '' : `; ${result.note}`}`);
}
if (over.length > 0) {
  console.log(`over ${BOUND}× the minimum: ${over.join('; ')}`);
  process.exitCode = 1;
}
