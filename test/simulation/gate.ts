import { expect, it } from 'vitest';
import { formatResult } from './format-result.js';
import { runSimulation, type SimulationOptions } from './run-simulation.js';

/**
 * The simulation as `npm test` runs it: three simulated days, two workers, a Redis with its append-only file, faults at
 * 0.4 of their soak rate (each worker restart costs seconds of start-up). Its seeds, 8 and 20 (one per test file, so
 * that vitest runs them side by side), were chosen so that between them every operator action and fault kind occurs,
 * with one 429 storm only (each 429 without Retry-After pauses the fleet for a minute of wall time).
 */
export const GATE: Omit<SimulationOptions, 'seed'> = { days: 3, workers: 2, redis: 'single', faultRate: 0.4 };

/** One seed of the gate: fails with every violation, the trace around each, and the command that replays it. */
export function simulationGate(seed: number): void {
  it(`seed ${seed}: over ${GATE.days} simulated days, every change promised happens once, at or after its due instant, or says why not; nothing else happens; reports, statuses and the audit trail match the service`, async () => {
    const result = await runSimulation({ ...GATE, seed });
    const replay = `npm run soak -- --seed ${seed} --days ${GATE.days} --workers ${GATE.workers} --redis ${GATE.redis} --fault-rate ${GATE.faultRate} --keep --verbose`;
    if (result.violations.length > 0) expect.fail(formatResult(result, replay));
    // A run that promised nothing or changed nothing proves nothing.
    expect(result.counts.promises).toBeGreaterThan(10);
    expect(result.counts.mutations).toBeGreaterThan(10);
  }, 20 * 60_000);
}
