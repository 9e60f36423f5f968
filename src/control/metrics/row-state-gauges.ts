import { Gauge, type Registry } from 'prom-client';
import type { BatchStore } from '../../queue/batch-store.js';
import { OPEN_ROW_STATES } from '../../queue/row-lifecycle.js';

/**
 * Rows without an outcome by their state (row-lifecycle.ts), over the open batches of every target (however old): what the rows' states say, read from the batch records' counts (one read a batch), never from the queue.
 * `scheduled` rows wait for a lifecycle's due instant; `queued` and `running` ones are at work.
 */
export function registerRowStateGauges(registry: Registry, storeOf: () => Pick<BatchStore, 'listOpen'> | undefined, read: (what: string, work: () => Promise<void>) => Promise<void>): void {
  new Gauge({
    name: 'seatflow_rows',
    help: 'Rows without an outcome yet, by state: planned, scheduled (waiting for a lifecycle step due on the service clock), queued, running; over the batches that have not ended (fleet-wide: aggregate with max)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const store = storeOf();
      if (store === undefined) return;
      await read('row states', async () => {
        const totals = { planned: 0, scheduled: 0, queued: 0, running: 0 };
        for (const batch of await store.listOpen()) {
          if (batch.state === 'finished' || batch.state === 'cancelled') continue;
          for (const state of OPEN_ROW_STATES) totals[state] += batch.rowStates[state];
        }
        for (const state of OPEN_ROW_STATES) this.set({ state }, totals[state]);
      });
    },
  });
}
