/** A refusal this recent means the server still refuses writes (a client retries a refused write within a second). */
const STILL_REFUSING_MS = 3000;

/** The writes a Redis server refused without running them, and whether it still refuses them. */
export interface RefusedWrites {
  /**
   * ioredis `reconnectOnError`: a write the server refused unrun is sent again after a reconnection.
   * - READONLY: a demoted master (behind Sentinel the reconnection asks the sentinels for the new one).
   * - NOREPLICAS: a master run with `min-replicas-to-write` that has too few replicas in sync (one just promoted away
   *   from it, or one still syncing after a failover). Waiting it out, as for a restart, keeps every caller's meaning:
   *   a write is made once a replica can hold it, and nothing fails a row or a submission for it.
   * Every atomic group of writes is one command (a Lua script: write-together.ts), so sending a refused one again never
   * splits a transaction.
   */
  reconnectOnError(error: Error): 2 | false;
  /** True while the server refuses writes for want of replicas: the Redis watch of the process counts it as silence. */
  refusingForReplicas(): boolean;
}

export function trackRefusedWrites(now: () => number = Date.now): RefusedWrites {
  let lastNoReplicas = Number.NEGATIVE_INFINITY;
  return {
    reconnectOnError(error) {
      if (error.message.startsWith('READONLY')) return 2;
      if (!error.message.startsWith('NOREPLICAS')) return false;
      lastNoReplicas = now();
      return 2;
    },
    refusingForReplicas: () => now() - lastNoReplicas < STILL_REFUSING_MS,
  };
}
