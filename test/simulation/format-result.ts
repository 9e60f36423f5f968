import { HOUR_MS, simTimeLabel } from './scenario/scenario.js';
import type { SimulationResult } from './run-simulation.js';
import { SIMULATION_START } from './run-simulation.js';

/** How many violations are printed in full, with their trace; the rest one line each. */
const SHOWN = 8;

/**
 * A run for people: the seed and how to replay it, what it did, and each violation with its invariant and the trace of
 * events around it (three hours of service time either side, and the events it concerns).
 */
export function formatResult(result: SimulationResult, replay: string): string {
  const lines = [
    `seed ${result.seed}, ${result.days} simulated days: ${result.violations.length === 0 ? 'no violation' : `${result.violations.length} violation(s)`} (${(result.wallMs / 1000).toFixed(0)} s)`,
    `  replay: ${replay}`,
    `  wall: start ${seconds(result.timings.startMs)}, ${result.days} days ${seconds(result.timings.playMs)}, settle ${seconds(result.timings.settleMs)}, judge ${seconds(result.timings.judgeMs)}`,
    `  cpu: this process ${result.cost.hostCpuSeconds.toFixed(1)} s; ${Object.entries(result.cost.processCpuSeconds).map(([name, cpu]) => `${name} ${cpu.toFixed(1)} s`).join(', ')}; ${result.cost.commands} commands (${seconds(result.cost.commandWallMs)} of wall time)${Object.keys(result.cost.restarts).length === 0 ? '' : `; exited on their own and started again: ${formatCounts(result.cost.restarts)}`}`,
    `  actions: ${formatCounts(result.counts.actions)}`,
    `  faults: ${formatCounts(result.counts.faults)}`,
    `  ${result.counts.promises} promises, ${result.counts.mutations} changes in the service's mutation log${result.dir === undefined ? '' : `; logs in ${result.dir}`}`,
  ];
  const byInvariant = new Map<string, number>();
  for (const violation of result.violations) byInvariant.set(violation.invariant, (byInvariant.get(violation.invariant) ?? 0) + 1);
  if (byInvariant.size > 0) lines.push(`  by invariant: ${formatCounts(Object.fromEntries(byInvariant))}`);
  for (const violation of result.violations.slice(0, SHOWN)) {
    const when = violation.at === undefined ? '' : ` at ${simTimeLabel(violation.at - SIMULATION_START)}`;
    lines.push('', `VIOLATION ${violation.invariant}${when} (seed ${result.seed})`, `  ${violation.message}`);
    // The events it concerns, those three hours either side, and every line naming the people it names.
    const emails = violation.message.match(/[\w.+-]+@[\w.-]+\.\w+/g) ?? [];
    const around = result.trace.entries().filter(
      (entry) =>
        (violation.at !== undefined && Math.abs(entry.at - violation.at) <= 3 * HOUR_MS) ||
        (entry.eventSeq !== undefined && violation.eventSeqs.includes(entry.eventSeq)) ||
        emails.some((email) => entry.what.includes(email)),
    );
    if (around.length > 0) lines.push('  trace:');
    for (const entry of around.slice(0, 40)) lines.push(`    ${simTimeLabel(entry.at - SIMULATION_START)}  ${entry.eventSeq === undefined ? '' : `#${entry.eventSeq} `}${entry.what}`);
  }
  if (result.violations.length > SHOWN) lines.push('', `and ${result.violations.length - SHOWN} more:`);
  for (const violation of result.violations.slice(SHOWN)) lines.push(`  ${violation.invariant}: ${violation.message}`);
  return `${lines.join('\n')}\n`;
}

export function formatCounts(counts: Record<string, number>): string {
  const entries = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? 'none' : entries.map(([name, n]) => `${name} ${n}`).join(', ');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
