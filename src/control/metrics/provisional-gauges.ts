import { Gauge, type Registry } from 'prom-client';
import { provisionalCounts, type ProvisionalSeat } from '../../events/provisional-tracker.js';

/** The Provisional Members tracked from the service's events (docs/events.md#provisional-members). */
export interface ProvisionalSource {
  list(): Promise<ProvisionalSeat[]>;
  /** A review ending within this long counts as soon (config events.provisionalSoonDays). */
  soonMs: number;
  /** The service's time (ms). */
  now(): number;
}

/**
 * Gauges of the Provisional Members, read from Redis when scraped: how many are tracked, how many reviews end soon or
 * have ended without the service's event yet, and how long until the soonest ends (alert on it to upgrade in time).
 */
export function registerProvisionalGauges(registry: Registry, sourceOf: () => ProvisionalSource | undefined, read: (what: string, work: () => Promise<void>) => Promise<void>): void {
  let seatsRead: Promise<ProvisionalSeat[]> | undefined;
  // One read serves both gauges of a scrape (prom-client collects them at once).
  const seats = (source: ProvisionalSource): Promise<ProvisionalSeat[]> => {
    seatsRead ??= source.list().finally(() => {
      seatsRead = undefined;
    });
    return seatsRead;
  };
  new Gauge({
    name: 'seatflow_provisional_members',
    help: 'Provisional Members of the subscribed plan by state: tracked, expiring_soon (review ends within events.provisionalSoonDays), past_due (ended, the service has not said so yet)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const source = sourceOf();
      if (source === undefined) return;
      await read('provisional members', async () => {
        const counts = provisionalCounts(await seats(source), source.now(), source.soonMs);
        this.set({ state: 'tracked' }, counts.total);
        this.set({ state: 'expiring_soon' }, counts.expiringSoon);
        this.set({ state: 'past_due' }, counts.pastDue);
      });
    },
  });
  new Gauge({
    name: 'seatflow_provisional_next_expiry_seconds',
    help: "Seconds until the soonest Provisional Member's review period ends (negative: ended, the service's event awaited); absent when none is tracked",
    registers: [registry],
    async collect() {
      const source = sourceOf();
      if (source === undefined) return;
      await read('provisional next expiry', async () => {
        const soonest = (await seats(source))[0];
        if (soonest === undefined) this.reset();
        else this.set((Date.parse(soonest.expiresAt) - source.now()) / 1000);
      });
    },
  });
}
