import { HOUR_MS } from '../scenario/scenario.js';
import type { FaultKind } from './fault-kind.js';

/**
 * A worker restarted on a machine whose clock is wrong (NTP broken): minutes to days ahead, or behind. Due times live
 * on the service's clock, so it must act no earlier than a worker whose clock is right. Restarted with a right clock
 * after some hours.
 */
export const skewedWorker: FaultKind = {
  name: 'skewed-worker',
  perDay: 0.7,
  applies: (world) => world.workers >= 1,
  draw: (draw) => ({
    worker: draw.int(8),
    skewMs: (draw.chance(0.7) ? 1 : -1) * draw.pick([5 * 60_000, 2 * HOUR_MS, 26 * HOUR_MS, 3 * 24 * HOUR_MS]),
    hours: draw.between(2, 12),
  }),
  async inject(params, context) {
    const { workers } = context.world;
    const worker = workers[Number(params.worker) % workers.length]!;
    const skewMs = Number(params.skewMs);
    await worker.kill();
    worker.start({ skewMs });
    await context.note(`${worker.name} restarted with its clock ${skewMs > 0 ? 'ahead' : 'behind'} by ${Math.abs(skewMs) / 60_000} min`);
    return {
      forMs: Number(params.hours) * HOUR_MS,
      atLeastWallMs: 3000,
      heal: async () => {
        await worker.kill();
        worker.start({ skewMs: 0 });
        await context.note(`${worker.name} restarted with a right clock`);
      },
    };
  },
};
