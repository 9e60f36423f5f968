import type { FaultKind } from './fault-kind.js';

/**
 * A `seatflow worker` SIGKILLed (a crash: no shutdown, its locks left to expire), at a random moment or mid-call (the
 * service answers slowly for a moment, so the kill meets calls in flight); it comes back after a while, as a
 * supervisor restarts it. Another worker keeps running.
 */
export const workerKill: FaultKind = {
  name: 'worker-kill',
  perDay: 3,
  applies: (world) => world.workers >= 2,
  draw: (draw) => ({ worker: draw.int(8), midCall: draw.chance(0.5), downMs: draw.between(300, 4000), seed: draw.int(1_000_000) }),
  async inject(params, context) {
    const { workers } = context.world;
    const worker = workers[Number(params.worker) % workers.length]!;
    if (!worker.running()) {
      await context.note(`${worker.name} is down already: not killed again`);
      return { forMs: 0, atLeastWallMs: 0, heal: async () => undefined };
    }
    let token: number | undefined;
    if (params.midCall === true) {
      token = await context.setServiceFaults('delay:400ms:1', Number(params.seed));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const skewMs = worker.skewMs();
    await worker.kill();
    if (token !== undefined) await context.clearServiceFaults(token);
    await context.note(`${worker.name} SIGKILLed${params.midCall === true ? ' mid-call' : ''}; back in ${String(params.downMs)} ms`);
    return {
      forMs: 0,
      atLeastWallMs: Number(params.downMs),
      heal: async () => {
        if (!worker.running()) worker.start({ skewMs });
        await context.note(`${worker.name} started again`);
      },
    };
  },
};
