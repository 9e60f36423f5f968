/** A refusal this recent means the server still refuses writes (a client retries a refused write within a second). */
const STILL_REFUSING_MS = 3000;

/** Why the server refuses writes, as a process's Redis watch says it. */
const REASONS = {
  NOREPLICAS: 'too few replicas in sync: min-replicas-to-write',
  READONLY: 'it is a read-only replica',
} as const;

/** The writes a Redis server refused without running them, and whether it still refuses them. */
export interface RefusedWrites {
  /**
   * ioredis `reconnectOnError`: a write the server refused unrun is sent again after a reconnection.
   * - NOREPLICAS: a master run with `min-replicas-to-write` that has too few replicas in sync (one just promoted away
   *   from it, or one still syncing after a failover). Waiting it out, as for a restart, keeps every caller's meaning:
   *   a write is made once a replica can hold it, and nothing fails a row or a submission for it.
   * - READONLY, behind Sentinel or on a cluster: a demoted master (the reconnection finds the new one). On one server
   *   named by its URL it is no passing state (the URL names a replica): the error goes to the caller.
   * Every atomic group of writes is one command (a Lua script: write-together.ts), so sending a refused one again never
   * splits a transaction.
   */
  reconnectOnError(error: Error): 2 | false;
  /** Why the server refuses the writes sent again, while it goes on refusing them: the Redis watch counts it as silence. */
  refusing(): string | undefined;
}

export function trackRefusedWrites(options: { resendReadOnly: boolean }, now: () => number = Date.now): RefusedWrites {
  let last: { at: number; reason: string } | undefined;
  return {
    reconnectOnError(error) {
      const code = error.message.split(' ', 1)[0];
      if (code !== 'NOREPLICAS' && !(code === 'READONLY' && options.resendReadOnly)) return false;
      last = { at: now(), reason: REASONS[code] };
      return 2;
    },
    refusing: () => (last !== undefined && now() - last.at < STILL_REFUSING_MS ? last.reason : undefined),
  };
}
