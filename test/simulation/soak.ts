import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import bundleTheCli from '../setup/cli-bundle.js';
import { formatCounts, formatResult } from './format-result.js';
import { runSimulation } from './run-simulation.js';
import type { RedisTopology } from './world/start-world.js';

/**
 * `npm run soak -- --seed N --days D [--workers K] [--seeds M] [--redis single|sentinel|alternate] [--fault-rate F] [--keep]
 * [--verbose]`:
 * runs M seeds from N, each over D simulated days, one after another, printing each run (and its violations with
 * their traces) and a summary: seeds run, faults injected by kind, violations by invariant. Exit 1 on any violation.
 */
const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    days: { type: 'string', default: '7' },
    workers: { type: 'string', default: '2' },
    seeds: { type: 'string', default: '1' },
    redis: { type: 'string', default: 'alternate' },
    'fault-rate': { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const first = Number(values.seed);
const days = Number(values.days);
const workers = Number(values.workers);
const seeds = Number(values.seeds);
const faultRate = Number(values['fault-rate']);
const topologyOf = (seed: number): RedisTopology => (values.redis === 'alternate' ? (seed % 2 === 0 ? 'sentinel' : 'single') : (values.redis as RedisTopology));

// Every seatflow process of every seed runs one bundle of the sources as they were at the start (as the tests do): a
// process starts in a third of the time, and sources edited while a long soak runs do not change it halfway.
const removeBundle = process.env.SEATFLOW_DEV_BUNDLE === undefined ? await bundleTheCli() : () => undefined;

// Interrupted (Ctrl-C, a timeout's SIGTERM): the world's processes (Redis, the reference server, seatflow's) are this
// process's children and would outlive it, so they are stopped first.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    spawnSync('pkill', ['-TERM', '-P', String(process.pid)]);
    removeBundle();
    process.exit(130);
  });
}

const faults: Record<string, number> = {};
const invariants: Record<string, number> = {};
const failing: number[] = [];
let simulatedDays = 0;
for (let seed = first; seed < first + seeds; seed += 1) {
  const redis = topologyOf(seed);
  const result = await runSimulation({ seed, days, workers, redis, faultRate, keepDir: values.keep, ...(values.verbose ? { echo: (line: string) => process.stdout.write(`  ${line}\n`) } : {}) });
  simulatedDays += days;
  for (const [name, n] of Object.entries(result.counts.faults)) faults[name] = (faults[name] ?? 0) + n;
  for (const violation of result.violations) {
    const kind = `${violation.invariant} (${violation.lifecycle === true ? 'lifecycle step' : 'batch or unattributed'})`;
    invariants[kind] = (invariants[kind] ?? 0) + 1;
  }
  if (result.violations.length > 0) failing.push(seed);
  process.stdout.write(formatResult(result, `npm run soak -- --seed ${seed} --days ${days} --workers ${workers} --redis ${redis} --fault-rate ${faultRate}`));
}
process.stdout.write(
  [
    '',
    `soak: ${seeds} seed(s) from ${first}, ${simulatedDays} simulated days, ${workers} workers`,
    `  faults injected: ${formatCounts(faults)}`,
    `  violations by invariant: ${formatCounts(invariants)}`,
    `  seeds with a violation: ${failing.length === 0 ? 'none' : failing.join(', ')}`,
    '',
  ].join('\n'),
);
removeBundle();
process.exitCode = failing.length === 0 ? 0 : 1;
