import type { Draw } from '../scenario/draw.js';
import type { RedisTopology, World } from '../world/start-world.js';

/** What a fault may use: the world, the trace, and the one fault spec of the reference server at a time. */
export interface FaultContext {
  world: World;
  /** Notes a line of the trace for this fault. */
  note(what: string): Promise<void>;
  /**
   * Sets the reference server's faults (`PUT /_sim/faults`) with the fault's own seed; returns a token that
   * `clearServiceFaults` takes, so a storm that was replaced by another does not clear the newer one.
   */
  setServiceFaults(spec: string, seed: number): Promise<number>;
  clearServiceFaults(token: number): Promise<void>;
}

/** What a fault left to heal later (a storm to end, a worker to bring back), by the runner, once it is over. */
export interface Injected {
  /** Service time it lasts (0: over at once). */
  forMs: number;
  /** Wall time it lasts at least, so that workers meet it whatever the clock does meanwhile. */
  atLeastWallMs: number;
  heal(): Promise<void>;
}

/**
 * One kind of fault, as a module of this folder (register it in `fault-kinds.ts`): `draw` picks its parameters from
 * the seed (plain JSON), `inject` does it to the running world and says how to heal it.
 */
export interface FaultKind {
  name: string;
  /** Mean occurrences per simulated day. */
  perDay: number;
  /** Whether this world can suffer it (a Sentinel failover needs Sentinel; killing a worker, a second one). */
  applies(world: { redis: RedisTopology; workers: number }): boolean;
  draw(draw: Draw): Record<string, unknown>;
  inject(params: Record<string, unknown>, context: FaultContext): Promise<Injected>;
}

/** A fault over at once: nothing to heal. */
export const OVER: Injected = { forMs: 0, atLeastWallMs: 0, heal: async () => undefined };
