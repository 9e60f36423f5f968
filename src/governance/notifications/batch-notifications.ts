import type { Logger } from '../../core/logger.js';
import type { BatchRecord, BatchStore, BatchStoreHooks } from '../../queue/batch-store.js';
import { OUTCOMES } from '../../queue/row-outcome.js';
import type { Notifier } from './notification-event.js';

/** Failed and unknown rows named in a `rows.failed` message; the rest are in the report. */
const ROWS_NAMED = 10;

function countsText(batch: BatchRecord): string {
  const parts = OUTCOMES.filter((outcome) => batch.counts[outcome] > 0).map((outcome) => `${batch.counts[outcome]} ${outcome}`);
  return `${batch.total} row${batch.total === 1 ? '' : 's'}: ${parts.join(', ') || 'none'}`;
}

/**
 * `batch.finished` (with counts) and `rows.failed` (failed or unknown rows, the first ones named) when a batch
 * finishes, from the batch store's hooks: every way a batch ends (run, worker, retry, an offboarding's step batches)
 * passes there. Ids carry the finish time, so a batch retried and finished again is told again.
 */
export function batchNotificationHooks(store: Pick<BatchStore, 'get' | 'outcomes'>, notifier: Notifier, logger: Logger): BatchStoreHooks {
  async function finished(batchId: string): Promise<void> {
    try {
      const batch = await store.get(batchId);
      if (batch === undefined || batch.state !== 'finished') return;
      const at = batch.finishedAt ?? new Date().toISOString();
      const common = { path: `/batches/${batch.id}`, target: batch.target, sim: batch.sim };
      const facts = { batchId: batch.id, source: batch.source, counts: batch.counts, total: batch.total, finishedAt: at };
      await notifier.notify({
        id: `batch.finished:${batch.id}:${at}`,
        type: 'batch.finished',
        title: `Batch ${batch.id} finished: ${countsText(batch)}`,
        text: `${batch.source}\n${countsText(batch)}.\nReport: seatflow report ${batch.id}`,
        ...common,
        data: facts,
      });
      const troubled = batch.counts.failed + batch.counts.unknown;
      if (troubled === 0) return;
      const named: string[] = [];
      for await (const outcome of store.outcomes(batch.id)) {
        if (outcome.outcome !== 'failed' && outcome.outcome !== 'unknown') continue;
        const who = outcome.email ?? outcome.subject ?? (outcome.userId === undefined ? '' : `user ${outcome.userId}`);
        named.push(`row ${outcome.row} ${outcome.action} ${who}: ${outcome.outcome}${outcome.message === undefined ? '' : ` (${outcome.message})`}`);
        if (named.length >= ROWS_NAMED) break;
      }
      await notifier.notify({
        id: `rows.failed:${batch.id}:${at}`,
        type: 'rows.failed',
        title: `Batch ${batch.id}: ${batch.counts.failed} failed, ${batch.counts.unknown} unknown`,
        text: [
          `${batch.source}: ${countsText(batch)}.`,
          ...named,
          ...(troubled > named.length ? [`… ${troubled - named.length} more in the report`] : []),
          `Unknown rows may have applied: seatflow retry ${batch.id} confirms them before acting.`,
        ].join('\n'),
        ...common,
        data: { ...facts, rows: named },
      });
    } catch (error) {
      logger.warn({ err: error, batch: batchId }, 'could not queue the notifications of a finished batch');
    }
  }
  return {
    onOutcome: async (outcome, batchFinished) => {
      if (batchFinished) await finished(outcome.batchId);
    },
    onBatchFinished: finished,
  };
}
