import { describe, expect, it } from 'vitest';
import { OPERATOR_ACTIONS } from '../actions/operator-actions.js';
import { FAULT_KINDS } from '../faults/fault-kinds.js';
import { generateScenario, type GenerateOptions } from './generate-scenario.js';
import { populationOf } from './population.js';
import { DAY_MS } from './scenario.js';

const START = Date.parse('2031-03-03T00:00:00.000Z');
const users = [
  { id: 1, email: 'dana.whitfield@acme.example', status: 'ACTIVE', seatType: 'MEMBER' },
  { id: 2, email: 'admin@acme.example', status: 'ACTIVE', admin: true, seatType: 'MEMBER' },
  ...Array.from({ length: 60 }, (_, i) => ({ id: 100 + i, email: `ava.adams.${String(i).padStart(3, '0')}@acme.example`, status: i % 10 === 9 ? 'DEACTIVATED' : 'ACTIVE', seatType: i % 3 === 0 ? 'VIEWER' : 'MEMBER' })),
];
const population = populationOf({ users, sheetId: 7, columns: [{ id: 8, title: 'Notes' }], webhooks: [{ id: 9, name: 'hook' }] });
const options = (seed: number, extra: Partial<GenerateOptions> = {}): GenerateOptions => ({
  seed, days: 3, startAt: START, population, actions: OPERATOR_ACTIONS, faults: FAULT_KINDS, faultRate: 1, world: { redis: 'single', workers: 2 }, ...extra,
});

describe('generateScenario', () => {
  it('draws the same events, in the same order, with the same parameters, for the same seed', () => {
    expect(generateScenario(options(11))).toEqual(generateScenario(options(11)));
    expect(generateScenario(options(11)).events).not.toEqual(generateScenario(options(12)).events);
  });

  it('leaves every other kind’s draws as they were when one kind is left out (each draws from its own stream)', () => {
    const all = generateScenario(options(5)).events;
    const without = generateScenario(options(5, { faults: FAULT_KINDS.filter((kind) => kind.name !== 'redis-restart') })).events;
    // Events refer to earlier ones by seq, which shifts when one is left out: compare what they refer to.
    const strip = (events: typeof all) =>
      events.filter((event) => event.name !== 'redis-restart').map(({ at, kind, name, params }) => {
        const ref = events.find((event) => event.seq === params.ref);
        return { at, kind, name, params: { ...params, ...(ref === undefined ? {} : { ref: `${ref.name} at ${ref.at}` }) } };
      });
    expect(strip(without)).toEqual(strip(all));
  });

  it('syncs the HR export and runs the reconciliation every night, and injects no fault in the last four hours', () => {
    const { events } = generateScenario(options(3));
    for (const name of ['hr-sync', 'scheduled-reconciliation']) expect(events.filter((event) => event.name === name)).toHaveLength(3);
    expect(events.filter((event) => event.kind === 'fault' && event.at >= 3 * DAY_MS - 4 * 3_600_000)).toEqual([]);
    expect(events.map((event) => event.at)).toEqual([...events.map((event) => event.at)].sort((a, b) => a - b));
  });

  it('draws a Sentinel failover only for a world behind Sentinel, and a Redis restart only for one without', () => {
    const single = generateScenario(options(9, { days: 7 })).events.map((event) => event.name);
    const sentinel = generateScenario(options(9, { days: 7, world: { redis: 'sentinel', workers: 2 } })).events.map((event) => event.name);
    expect(single).toContain('redis-restart');
    expect(single).not.toContain('redis-failover');
    expect(sentinel).toContain('redis-failover');
    expect(sentinel).not.toContain('redis-restart');
  });
});
