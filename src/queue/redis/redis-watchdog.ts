/** What a process does when Redis stops answering after it connected. */
export interface RedisWatchdogOptions {
  /** One PING on the connection watched: resolves when Redis answered (it waits in the queue while Redis is away). */
  ping: () => Promise<unknown>;
  /**
   * Said once Redis has not answered for this long: once per outage, however long it lasts (a worker waiting an hour
   * logs one line when Redis goes and one when it is back, not one every few seconds).
   */
  warnAfterMs: number;
  /** Said once, after which the watchdog stops; undefined: never (a worker waits as long as it takes). */
  giveUpAfterMs?: number | undefined;
  onWaiting(silentMs: number): void;
  /** Redis answered again after `onWaiting` was said. */
  onAnswered(silentMs: number): void;
  onGiveUp?(silentMs: number): void;
  /** How often a PING goes out while Redis answers. Default 1 s. */
  intervalMs?: number;
  now?: () => number;
}

export interface RedisWatchdog {
  stop(): void;
}

/**
 * Watches a Redis connection that commands wait on without bound (they wait through a restart or a failover rather
 * than fail a row): a PING every second, and the time since Redis last answered. Every command waiting on Redis is
 * bounded by this one watch, not by a timeout per call site: past `warnAfterMs` it says so once, past `giveUpAfterMs` it
 * gives up (the command exits 3), and when Redis answers again it says that too. Time in which this process itself
 * did not run (a long synchronous stretch, a frozen or suspended process) is not counted as Redis' silence.
 */
export function watchRedis(options: RedisWatchdogOptions): RedisWatchdog {
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? 1000;
  let lastAnswer = now();
  let lastTick = lastAnswer;
  let pinging = false;
  let warned = false;
  let stopped = false;

  const ping = (): void => {
    pinging = true;
    options.ping().then(
      () => {
        pinging = false;
        if (stopped) return;
        const silentMs = now() - lastAnswer;
        lastAnswer = now();
        if (warned) options.onAnswered(silentMs);
        warned = false;
      },
      // Refused while disconnected: not an answer. The next tick asks again.
      () => {
        pinging = false;
      },
    );
  };

  const timer = setInterval(() => {
    const at = now();
    // The process did not run for a while (busy, suspended): Redis cannot be blamed for that stretch.
    const stalled = at - lastTick - intervalMs;
    if (stalled > intervalMs) lastAnswer += stalled;
    lastTick = at;
    const silentMs = at - lastAnswer;
    if (options.giveUpAfterMs !== undefined && silentMs >= options.giveUpAfterMs) {
      stop();
      options.onGiveUp?.(silentMs);
      return;
    }
    if (!warned && silentMs >= options.warnAfterMs) {
      warned = true;
      options.onWaiting(silentMs);
    }
    if (!pinging) ping();
  }, intervalMs);
  // The watch never keeps a process alive on its own.
  timer.unref();

  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return { stop };
}
