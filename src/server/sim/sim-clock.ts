/**
 * The server's clock: real time plus an offset that tests move (docs/reference-server.md#clock). Time keeps flowing after a move,
 * so rate-limit windows and delays behave normally; the reactivation window, the webhook sunset date and the
 * plan-name cache all read this clock.
 */
export interface SimClock {
  now(): number;
  /** Sets the current time (epoch ms). */
  set(epochMs: number): void;
  advance(ms: number): void;
  /** Back to real time. */
  reset(): void;
  offsetMs(): number;
}

export function createSimClock(start?: number, realNow: () => number = Date.now): SimClock {
  let offset = start === undefined ? 0 : start - realNow();
  return {
    now: () => realNow() + offset,
    set(epochMs) {
      offset = epochMs - realNow();
    },
    advance(ms) {
      offset += ms;
    },
    reset() {
      offset = 0;
    },
    offsetMs: () => offset,
  };
}
