import { OVER, type FaultKind } from './fault-kind.js';

/**
 * The Sentinel-managed master fails over to its replica (`SENTINEL FAILOVER`: the old master takes writes for a
 * moment, then is demoted and drops them): rows may lose their job and outcome, and must still end once.
 */
export const redisFailover: FaultKind = {
  name: 'redis-failover',
  perDay: 1,
  applies: (world) => world.redis === 'sentinel',
  draw: () => ({}),
  async inject(_params, context) {
    try {
      await context.world.redis.failover();
      await context.note('Redis failed over (SENTINEL FAILOVER)');
    } catch (error) {
      // A failover still under way refuses another (INPROG): that is the topology, not seatflow.
      await context.note(`Redis failover not started: ${error instanceof Error ? error.message : String(error)}`);
    }
    return OVER;
  },
};
