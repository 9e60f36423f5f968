import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { OPERATOR_ACTIONS } from './actions/operator-actions.js';
import type { Handle } from './actions/operator-action.js';
import { FAULT_KINDS } from './faults/fault-kinds.js';
import type { FaultContext, Injected } from './faults/fault-kind.js';
import { createLedger } from './ledger/ledger.js';
import { collectEvidence } from './oracle/collect-evidence.js';
import { judge } from './oracle/oracle.js';
import { INVARIANTS, type Violation } from './oracle/violation.js';
import { generateScenario } from './scenario/generate-scenario.js';
import { SIM_LIFECYCLE_POLICY, SIM_POLICY_FILE } from './scenario/hr-roster.js';
import { populationOf } from './scenario/population.js';
import { DAY_MS, HOUR_MS, simTimeLabel, type Scenario, type ScenarioEvent } from './scenario/scenario.js';
import { createTrace, type Trace } from './scenario/trace.js';
import { startWorld, type RedisTopology, type World } from './world/start-world.js';
import { nextStepDue, settle } from './settle.js';

/**
 * The stated bound: every batch and workflow ends within 180 s of wall time once the faults are over and the clock has
 * crossed its last due instant (a fleet paused by a 429's Retry-After of 60 s, a worker restarting on a loaded machine).
 */
export const BOUND_MS = 180_000;
/** How long the run's end waits for steps overdue at a round (workers catching up) before it judges what is due next. */
const OVERDUE_WAIT_MS = 30_000;

/** The service clock's start of every run: a Monday, midnight UTC (fixed, so a seed's dates are the same every time). */
export const SIMULATION_START = Date.parse('2031-03-03T00:00:00.000Z');

export interface SimulationOptions {
  seed: number;
  days: number;
  workers: number;
  redis: RedisTopology;
  /** Wall time given to the workers after each step of the clock (default 150 ms). */
  stepWallMs?: number;
  /**
   * How often faults happen: each fault kind's rate per day times this (default 1). The gate in `npm test` runs
   * lighter (each worker restart costs seconds of start-up); part of what a seed replays.
   */
  faultRate?: number;
  /** How long, in wall time after the last fault and the last due instant, every batch and workflow has to finish (180 s). */
  boundMs?: number;
  /** Keeps the run's folder (logs of every process, reports) and says where. */
  keepDir?: boolean;
  /** Each trace line as it happens (soak runs print them with --verbose). */
  echo?: (line: string) => void;
}

export interface SimulationResult {
  seed: number;
  days: number;
  scenario: Scenario;
  violations: Violation[];
  trace: Trace;
  counts: { actions: Record<string, number>; faults: Record<string, number>; promises: number; mutations: number };
  wallMs: number;
  /** Wall time of each part: starting the world, playing the days, the end (clock past every due instant, settling), judging. */
  timings: { startMs: number; playMs: number; settleMs: number; judgeMs: number };
  /** CPU seconds: this process (the generator, the oracle), each long-running seatflow process; and the command lines run. */
  cost: { hostCpuSeconds: number; processCpuSeconds: Record<string, number>; commands: number; commandWallMs: number; restarts: Record<string, number> };
  dir?: string;
}

/**
 * One seeded run: starts the world, draws the scenario from the seed, plays it while moving the service clock an
 * hour at a time (so that every due instant is crossed, with the workers given `stepWallMs` at each step), heals the
 * faults, moves the clock past the last promise and every step still to come, waits for everything to finish within
 * the bound, then judges the evidence.
 */
export async function runSimulation(options: SimulationOptions): Promise<SimulationResult> {
  const started = Date.now();
  const cpuAtStart = process.cpuUsage();
  const world = await startWorld({ workers: options.workers, redis: options.redis, startAt: SIMULATION_START, ...(options.keepDir === true ? { keepDir: true } : {}) });
  const worldUp = Date.now();
  try {
    writeFileSync(path.join(world.policyDir, SIM_POLICY_FILE), JSON.stringify(SIM_LIFECYCLE_POLICY, null, 2));
    const initialUsers = await world.service.users();
    const sheetId = 2094857361029384;
    const population = populationOf({ users: initialUsers, sheetId, columns: await world.service.columns(sheetId), webhooks: (await world.service.webhooks()).filter((webhook) => webhook.id !== world.events.webhookId) });
    const scenario = generateScenario({ seed: options.seed, days: options.days, startAt: SIMULATION_START, population, actions: OPERATOR_ACTIONS, faults: FAULT_KINDS, faultRate: options.faultRate ?? 1, world: { redis: options.redis, workers: options.workers } });
    const trace = createTrace(options.echo);
    const ledger = createLedger();
    const handles = new Map<number, Handle>();
    const player = createPlayer(world, trace, options.stepWallMs ?? 150);
    trace.note(await world.service.now(), `seed ${options.seed}: ${options.days} days, ${options.workers} workers, Redis ${options.redis}; ${scenario.events.length} events drawn`);

    // Actions left running in the background (commands that take seconds to start), by event.
    const running = new Map<number, Promise<void>>();
    const handle = async (seq: number) => {
      await running.get(seq);
      return handles.get(seq);
    };
    for (const event of scenario.events) {
      await player.advanceTo(SIMULATION_START + event.at);
      const note = async (what: string) => trace.note(await world.service.now(), `${event.name}: ${what}`, event.seq);
      const failed = async (error: unknown) => note(`could not be done: ${error instanceof Error ? error.message : String(error)}`);
      if (event.kind === 'fault') {
        await player.inject(event, note).catch(failed);
        continue;
      }
      const action = OPERATOR_ACTIONS.find((candidate) => candidate.name === event.name);
      if (action === undefined) throw new Error(`no operator action ${event.name}`);
      const performed = action.perform(event.params, { world, ledger, trace, event, population, startAt: SIMULATION_START, now: () => world.service.now(), handle, remember: (left) => handles.set(event.seq, left), note }).catch(failed);
      if (action.background === true) running.set(event.seq, performed);
      else await performed;
    }
    await Promise.all(running.values());
    await player.advanceTo(SIMULATION_START + options.days * DAY_MS);
    const played = Date.now();
    await player.healAll();
    const workflowIds = [...handles.values()].flatMap((handle) => (handle.workflowId === undefined ? [] : [handle.workflowId]));
    // Past every promise, then past every step seatflow says is still to come (a hold that began late ends late),
    // a few times: a step run at the end can set another's instant.
    let until = Math.max(SIMULATION_START + options.days * DAY_MS, ...ledger.all().map((promise) => promise.notBefore));
    for (let round = 0; round < 4; round += 1) {
      await player.advanceTo(until + HOUR_MS);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const due = await nextStepDue(world, workflowIds, OVERDUE_WAIT_MS);
      if (due === undefined || due <= (await world.service.now())) break;
      until = due;
    }
    const unfinished = await settle(world, { boundMs: options.boundMs ?? BOUND_MS, workflowIds, moveClockTo: (instant) => player.advanceTo(instant) });
    trace.note(await world.service.now(), unfinished.length === 0 ? 'every batch and workflow finished' : `still unfinished after the bound: ${unfinished.join('; ')}`);

    const settled = Date.now();
    const evidence = await collectEvidence({ world, ledger, handles, initialUsers, keep: options.keepDir === true });
    const violations = [
      ...judge(evidence),
      ...unfinished.map((what): Violation => ({
        invariant: INVARIANTS.bound,
        message: `${what}: not finished ${((options.boundMs ?? BOUND_MS) / 1000).toFixed(0)} s after the last fault and its last due instant`,
        eventSeqs: [],
        lifecycle: /^(offboarding |batch [ojm][0-9a-f]{12}-)/.test(what),
      })),
    ];
    return {
      seed: options.seed,
      days: options.days,
      scenario,
      violations,
      trace,
      counts: { actions: countNames(scenario.events, 'action'), faults: countNames(scenario.events, 'fault'), promises: ledger.all().length, mutations: evidence.mutations.length },
      wallMs: Date.now() - started,
      timings: { startMs: worldUp - started, playMs: played - worldUp, settleMs: settled - played, judgeMs: Date.now() - settled },
      cost: { hostCpuSeconds: cpuSecondsSince(cpuAtStart), ...world.cost() },
      ...(options.keepDir === true ? { dir: world.dir } : {}),
    };
  } finally {
    await world.close();
  }
}

interface Healing {
  injected: Injected;
  untilService: number;
  untilWall: number;
}

/** Moves the service clock and keeps the faults' time: what plays a scenario against the world. */
function createPlayer(world: World, trace: Trace, stepWallMs: number) {
  const healing: Healing[] = [];
  let faultToken = 0;
  let currentFault: number | undefined;
  const healDue = async (now: number, all = false) => {
    for (const entry of [...healing]) {
      if (!all && (entry.untilService > now || entry.untilWall > Date.now())) continue;
      healing.splice(healing.indexOf(entry), 1);
      await entry.injected.heal();
    }
  };
  let lastDay = -1;
  return {
    /** Steps the clock an hour at a time up to `target` (never back), healing what is over at each step. */
    async advanceTo(target: number) {
      for (let now = await world.service.now(); now < target; ) {
        now = await world.service.setClock(Math.min(target, now + HOUR_MS));
        const day = Math.floor((now - SIMULATION_START) / DAY_MS);
        if (day !== lastDay) {
          lastDay = day;
          trace.note(now, `clock: ${simTimeLabel(now - SIMULATION_START)}`);
        }
        await healDue(now);
        await new Promise((resolve) => setTimeout(resolve, stepWallMs));
      }
      await healDue(await world.service.now());
    },
    async inject(event: ScenarioEvent, note: (what: string) => Promise<void>) {
      const kind = FAULT_KINDS.find((candidate) => candidate.name === event.name);
      if (kind === undefined) throw new Error(`no fault kind ${event.name}`);
      const context: FaultContext = {
        world,
        note,
        async setServiceFaults(spec, seed) {
          faultToken += 1;
          currentFault = faultToken;
          await world.service.setFaults(spec, seed);
          return faultToken;
        },
        async clearServiceFaults(token) {
          if (currentFault !== token) return;
          currentFault = undefined;
          await world.service.setFaults('', 1);
        },
      };
      const injected = await kind.inject(event.params, context);
      const now = await world.service.now();
      healing.push({ injected, untilService: now + injected.forMs, untilWall: Date.now() + injected.atLeastWallMs });
    },
    /** Heals every fault still on, and brings every worker back with a right clock. */
    async healAll() {
      await healDue(Number.POSITIVE_INFINITY, true);
      await world.service.setFaults('', 1);
      for (const worker of world.workers) {
        if (worker.running() && worker.skewMs() === 0) continue;
        await worker.kill();
        worker.start();
      }
      trace.note(await world.service.now(), 'faults over: every worker running with a right clock');
    },
  };
}

function countNames(events: readonly ScenarioEvent[], kind: ScenarioEvent['kind']): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of events) if (event.kind === kind) counts[event.name] = (counts[event.name] ?? 0) + 1;
  return counts;
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}
