import { systemClock, type Clock } from './clock.js';

/**
 * Where the service's time comes from. date-header: the real service, read from the `Date` header of its answers
 * (second resolution); sim-clock: the reference server, whose clock tests and rehearsals move (`GET /_sim/clock`);
 * local: nothing read yet, this machine's clock.
 */
export type ServiceClockSource = 'date-header' | 'sim-clock' | 'local';

/**
 * The service's clock, as seatflow measures every time that means something to the service: leave dates and holds
 * (when a step is due), and last-login ages (reconciliation). It is this machine's clock plus the offset seen on the
 * service: a machine whose clock is off still decides on the service's time, and moving the reference server's clock
 * (`POST /_sim/clock`) moves seatflow's due times and ages with it, so next week can be rehearsed without faketime.
 */
export interface ServiceClock extends Clock {
  source(): ServiceClockSource;
  /** The service's time minus this machine's, in ms (0 until something was read). */
  skewMs(): number;
  /** A `Date` header seen on an answer (ms, whole seconds) and this machine's time when the answer came. */
  observe(serviceDateMs: number, localMs: number): void;
  /**
   * Reads the reference server's clock again (at most once per `refreshMs`, unless `fresh`); a no-op against the real
   * service.
   */
  refresh(fresh?: boolean): Promise<void>;
}

export interface ServiceClockOptions {
  /**
   * Reads the reference server's clock (epoch ms), or resolves undefined when the target is not one (the real
   * service): asked until it answers either way (a rejection is asked again at the next refresh), then on every
   * refresh while it answers with a clock.
   */
  readSimClock?: () => Promise<number | undefined>;
  /** This machine's clock; default Date.now. */
  local?: () => number;
  /** Told once when the skew first exceeds `warnSkewMs` (a machine clock off, or a moved simulation clock). */
  onSkew?: (skewMs: number, source: ServiceClockSource) => void;
  /** Default 30 s: enough to matter to a hold or a due time, far above the Date header's one-second steps. */
  warnSkewMs?: number;
  /** Default 1 s: a busy worker reads the reference server's clock at most this often. */
  refreshMs?: number;
}

/** Date headers kept to take the median of: one late answer does not move the clock. */
const SAMPLES = 9;

/** A `Date` header says the second, not the instant: its middle is taken, so the instant is known to half a second. */
const DATE_HEADER_UNCERTAINTY_MS = 500;

export function createServiceClock(options: ServiceClockOptions = {}): ServiceClock {
  const local = options.local ?? Date.now;
  const warnSkewMs = options.warnSkewMs ?? 30_000;
  const refreshMs = options.refreshMs ?? 1000;
  let source: ServiceClockSource = 'local';
  let offset = 0;
  let warned = false;
  let samples: number[] = [];
  let probed = options.readSimClock === undefined;
  let lastRead = -Infinity;
  let readUncertainty = 0;
  let reading: Promise<void> | undefined;

  const settle = (next: number): void => {
    offset = next;
    if (!warned && Math.abs(offset) > warnSkewMs) {
      warned = true;
      options.onSkew?.(offset, source);
    }
  };

  const read = async (): Promise<void> => {
    const before = local();
    let serviceMs: number | undefined;
    try {
      serviceMs = await options.readSimClock?.();
    } catch {
      // Not reached (a reference server not up yet, a moment of network trouble): asked again at the next refresh. Taken
      // for "not a reference server", a worker started before `seatflow sim` kept this machine's clock for good.
      lastRead = local();
      return;
    }
    probed = true;
    lastRead = local();
    if (serviceMs === undefined) return;
    source = 'sim-clock';
    // The reference server read its clock somewhere within the round trip: its middle is taken, half of it is unknown.
    readUncertainty = Math.ceil((lastRead - before) / 2);
    settle(serviceMs - (before + lastRead) / 2);
  };

  return {
    now: () => local() + offset,
    sleep: systemClock.sleep,
    source: () => source,
    skewMs: () => offset,
    uncertaintyMs: () => (source === 'sim-clock' ? readUncertainty : source === 'date-header' ? DATE_HEADER_UNCERTAINTY_MS : 0),
    observe(serviceDateMs, localMs) {
      // The reference server's Date header is its process's wall clock, not the clock it answers by.
      if (source === 'sim-clock' || !Number.isFinite(serviceDateMs)) return;
      source = 'date-header';
      // The header says the second the answer was made: its middle is the best guess of the instant.
      samples = [...samples, serviceDateMs + 500 - localMs].slice(-SAMPLES);
      const sorted = [...samples].sort((a, b) => a - b);
      settle(sorted[Math.floor(sorted.length / 2)] ?? 0);
    },
    async refresh(fresh = false) {
      if (probed && source !== 'sim-clock') return;
      if (!fresh && local() - lastRead < refreshMs) return;
      // A fresh read must begin after it was asked for: one already under way may have read the clock before.
      if (fresh && reading !== undefined) await reading;
      reading ??= read().finally(() => (reading = undefined));
      await reading;
    },
  };
}

/**
 * "3d 4h", "2h 5m", "3m 12s", "40 s": a length of time for people, rounded to its smallest unit shown (a skew measured
 * a few milliseconds short of four days is "4d 0h", not "3d 23h").
 */
export function describeDuration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (seconds < 3600 - 30) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  const hours = Math.round(minutes / 60);
  if (minutes < 24 * 60 - 30) return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** "3d 4h ahead of this machine", "12 s behind this machine", "in step with this machine": a skew for people. */
export function describeSkew(skewMs: number): string {
  if (Math.abs(skewMs) < 2000) return 'in step with this machine';
  return `${describeDuration(skewMs)} ${skewMs > 0 ? 'ahead of' : 'behind'} this machine`;
}
