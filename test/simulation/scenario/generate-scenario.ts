import type { OperatorAction } from '../actions/operator-action.js';
import type { FaultKind } from '../faults/fault-kind.js';
import type { RedisTopology } from '../world/start-world.js';
import { createDraw, type Draw } from './draw.js';
import type { Population } from './population.js';
import { DAY_MS, HOUR_MS, type Scenario, type ScenarioEvent } from './scenario.js';

export interface GenerateOptions {
  seed: number;
  days: number;
  startAt: number;
  population: Population;
  actions: readonly OperatorAction[];
  faults: readonly FaultKind[];
  /** Each fault kind's rate per day is multiplied by this. */
  faultRate: number;
  world: { redis: RedisTopology; workers: number };
  /** Faults stop this long before the end of the last day, so that the run ends after a quiet stretch. */
  quietEndMs?: number;
}

interface Slot {
  at: number;
  kind: 'action' | 'fault';
  name: string;
  stream: Draw;
  drawParams: (earlier: readonly ScenarioEvent[]) => Record<string, unknown> | undefined;
}

/**
 * The whole run, drawn from the seed before anything starts: for each simulated day, each operator action happens a
 * drawn number of times at drawn minutes of its hours, and each fault kind at drawn minutes of the day. Every action
 * and fault kind draws from its own stream of the seed, so adding one leaves the others' draws as they were; the
 * parameters of each occurrence are drawn in time order, seeing the events before it (what an undo can refer to).
 */
export function generateScenario(options: GenerateOptions): Scenario {
  const { seed, days, population } = options;
  const slots: Slot[] = [];
  const counters = new Map<string, number>();
  const fresh = (prefix: string) => {
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return `${prefix}-${seed}-${n}`;
  };
  for (const action of options.actions) {
    const stream = createDraw(seed, `action:${action.name}`);
    const [from, to] = action.hours;
    for (let day = 0; day < days; day += 1) {
      for (let n = action.perDay === 'once' ? 1 : stream.occurrences(action.perDay); n > 0; n -= 1) {
        const at = day * DAY_MS + from * HOUR_MS + stream.int((to - from) * 60) * 60_000;
        slots.push({ at, kind: 'action', name: action.name, stream, drawParams: (earlier) => action.draw({ draw: stream, at, startAt: options.startAt, days, population, earlier, fresh }) });
      }
    }
  }
  const quietEnd = days * DAY_MS - (options.quietEndMs ?? 4 * HOUR_MS);
  for (const fault of options.faults) {
    if (!fault.applies(options.world)) continue;
    const stream = createDraw(seed, `fault:${fault.name}`);
    for (let day = 0; day < days; day += 1) {
      for (let n = stream.occurrences(fault.perDay * options.faultRate); n > 0; n -= 1) {
        const at = day * DAY_MS + stream.int(24 * 60) * 60_000;
        if (at >= quietEnd) continue;
        slots.push({ at, kind: 'fault', name: fault.name, stream, drawParams: () => fault.draw(stream) });
      }
    }
  }
  // Time order; at the same minute, actions before faults, then by name: a stable order whatever was drawn first.
  slots.sort((a, b) => a.at - b.at || (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'action' ? -1 : 1));
  const events: ScenarioEvent[] = [];
  for (const slot of slots) {
    const params = slot.drawParams(events);
    if (params === undefined) continue;
    events.push({ seq: events.length + 1, at: slot.at, kind: slot.kind, name: slot.name, params });
  }
  return { seed, days, startAt: options.startAt, events };
}
