/**
 * One thing that happens in a simulated run, at `at` ms of service time after the run's start: an operator's action
 * (`kind: 'action'`, by the name of its module in actions/) or a fault (`kind: 'fault'`, by its name in faults/).
 * `params` are what the generator drew for it (plain JSON): the same seed gives the same events, in the same order,
 * with the same params, whatever the machine does meanwhile.
 */
export interface ScenarioEvent {
  seq: number;
  at: number;
  kind: 'action' | 'fault';
  name: string;
  params: Record<string, unknown>;
}

export interface Scenario {
  seed: number;
  days: number;
  /** The service clock's start (epoch ms). */
  startAt: number;
  events: ScenarioEvent[];
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** "day 2 14:05" for a time `at` ms after the start: how traces name simulated instants. */
export function simTimeLabel(at: number): string {
  const day = Math.floor(at / DAY_MS) + 1;
  const inDay = at - (day - 1) * DAY_MS;
  const hours = Math.floor(inDay / HOUR_MS);
  const minutes = Math.floor((inDay % HOUR_MS) / 60_000);
  const seconds = Math.floor((inDay % 60_000) / 1000);
  return `day ${day} ${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}
