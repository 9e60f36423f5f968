import { HOUR_MS } from '../scenario/scenario.js';
import type { Draw } from '../scenario/draw.js';
import type { FaultKind } from './fault-kind.js';

/**
 * A kind of fault of the service itself, for a while (`PUT /_sim/faults`): `spec` draws the reference server's fault
 * spec (docs/reference-server.md#faults). 500/503 storms, 429 storms, answers lost after the change was made, answers
 * slower than the client waits: each is one of these, named in fault-kinds.ts.
 */
export function serviceStorm(name: string, perDay: number, spec: (draw: Draw) => string, what: string): FaultKind {
  return {
    name,
    perDay,
    applies: () => true,
    draw: (draw) => ({ spec: spec(draw), hours: draw.between(1, 3), wallMs: draw.between(1500, 5000), seed: draw.int(1_000_000) }),
    async inject(params, context) {
      const token = await context.setServiceFaults(String(params.spec), Number(params.seed));
      await context.note(`${what}: the service answers ${String(params.spec)} for ${String(params.hours)} h (at least ${String(params.wallMs)} ms)`);
      return {
        forMs: Number(params.hours) * HOUR_MS,
        atLeastWallMs: Number(params.wallMs),
        heal: async () => {
          await context.clearServiceFaults(token);
          await context.note(`${what} over`);
        },
      };
    },
  };
}
