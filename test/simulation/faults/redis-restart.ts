import { OVER, type FaultKind } from './fault-kind.js';

/**
 * Redis stopped and started again on its append-only file (a restart or a crash of its machine): every seatflow
 * process loses its connections for a moment and must go on where it was.
 */
export const redisRestart: FaultKind = {
  name: 'redis-restart',
  perDay: 1,
  applies: (world) => world.redis === 'single',
  draw: () => ({}),
  async inject(_params, context) {
    const started = Date.now();
    await context.world.redis.restart();
    await context.note(`Redis restarted (down ${Date.now() - started} ms)`);
    return OVER;
  },
};
