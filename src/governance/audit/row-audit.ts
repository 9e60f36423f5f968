import type { Logger } from '../../core/logger.js';
import type { BatchStore, BatchStoreHooks } from '../../queue/batch-store.js';
import type { RowOutcome } from '../../queue/row-outcome.js';
import type { AuditLog } from './audit-log.js';

/** Who appends row entries: the worker that ran the row (the person who asked is on the batch's request entry). */
export const WORKER_ACTOR = 'worker';

/**
 * Rows the service was asked to change: those that reached it (or may have). Rows the plan skipped, already-done rows
 * no call was made for, and cancelled rows changed nothing and are in the batch's report, not the audit trail.
 */
export function reachedTheService(outcome: RowOutcome): boolean {
  if (outcome.outcome === 'succeeded' || outcome.outcome === 'failed' || outcome.outcome === 'unknown') return true;
  return outcome.outcome === 'unchanged' && outcome.attempts > 0;
}

/** The entry of one row: the change asked for and the service's answer. No token or secret is in an outcome. */
export function rowEntryData(outcome: RowOutcome): Record<string, unknown> {
  const pick = <K extends keyof RowOutcome>(...fields: K[]) =>
    Object.fromEntries(fields.filter((field) => outcome[field] !== undefined).map((field) => [field, outcome[field]]));
  return pick('row', 'action', 'email', 'userId', 'subject', 'outcome', 'category', 'status', 'errorCode', 'refId', 'message', 'attempts', 'confirmed', 'detail', 'sim', 'finishedAt');
}

/** What a row's entry says of its change: made (succeeded, or unchanged: the effect is there), not made, or maybe. */
function changeVerdict(outcome: Pick<RowOutcome, 'outcome'>): 'made' | 'not-made' | 'maybe' {
  if (outcome.outcome === 'succeeded' || outcome.outcome === 'unchanged') return 'made';
  return outcome.outcome === 'unknown' ? 'maybe' : 'not-made';
}

/**
 * What makes a row's entry one entry: its batch, its row, the row's run (a `retry` starts a new one, whose outcome is
 * another entry) and what the entry says of the change. Not the outcome's time: the outcome and the entry are two
 * writes to different keys, and a Redis failover can drop the first and keep the second (the old master takes the
 * outcome and is demoted; the entry lands on the new one). The row, without its outcome, is then queued again as lost,
 * confirms, and records the same change a second time, later: under this key, the entry already there.
 */
export function rowEntryKey(outcome: Pick<RowOutcome, 'batchId' | 'row' | 'outcome'>, run: number): string {
  return `row ${outcome.batchId} ${outcome.row} run ${run} ${changeVerdict(outcome)}`;
}

/**
 * The batch store's hook that appends one `row.applied` entry per row the service was asked to change: the one place
 * every outcome is recorded (src/queue), so every job type, step and retry is covered alike. A failed append is
 * logged, never thrown: the row's outcome stands either way (and stays in the batch's report), and the next catch-up
 * (`appendMissingRowEntries`) appends it.
 */
export function auditRowHooks(audit: AuditLog, logger: Logger): BatchStoreHooks {
  return {
    async onOutcome(outcome, _batchFinished, run) {
      if (!reachedTheService(outcome)) return;
      try {
        await audit.appendOnce({ event: 'row.applied', actor: WORKER_ACTOR, subject: outcome.batchId, data: rowEntryData(outcome) }, rowEntryKey(outcome, run));
      } catch (error) {
        logger.error({ err: error, batch: outcome.batchId, row: outcome.row }, 'could not append the row to the audit log');
      }
    },
  };
}

/** How far before a batch's creation its rows' entries are looked for: machines' clocks and Redis's differ a little. */
const CLOCK_MARGIN_MS = 3_600_000;

/**
 * Appends the entry of every row of the recent batches that reached the service and has none: a process killed (or a
 * Redis that stopped answering) between a row's outcome and its entry left it out. Run when a worker starts. Entries
 * already there are found in the trail since the oldest of those batches (older entries carry no once-key, or one
 * keyed by the outcome's time), and the once-key (`rowEntryKey`, with the run the row's end was told) keeps a live
 * worker's entry and this one from both landing. The entries it appends say `recovered`. Returns how many it appended.
 */
export async function appendMissingRowEntries(options: { audit: AuditLog; store: Pick<BatchStore, 'list' | 'outcomes' | 'rowLifecycle'>; batches?: number }): Promise<number> {
  const recent = await options.store.list(options.batches ?? 50);
  if (recent.length === 0) return 0;
  const since = Math.min(...recent.map((batch) => Date.parse(batch.createdAt)).filter(Number.isFinite));
  const present = new Set<string>();
  for await (const { raw } of options.audit.entries(Number.isFinite(since) ? { fromMs: since - CLOCK_MARGIN_MS } : {})) {
    const entry = JSON.parse(raw) as { event?: string; subject?: string; data?: { row?: number; outcome?: string; finishedAt?: string } };
    if (entry.event !== 'row.applied') continue;
    present.add(`${entry.subject} ${entry.data?.row} ${entry.data?.outcome} ${entry.data?.finishedAt ?? '*'}`);
  }
  let appended = 0;
  for (const batch of recent) {
    const runs = await options.store.rowLifecycle.runs(batch.id);
    for await (const outcome of options.store.outcomes(batch.id)) {
      if (!reachedTheService(outcome)) continue;
      const seen = `${outcome.batchId} ${outcome.row} ${outcome.outcome}`;
      if (present.has(`${seen} ${outcome.finishedAt}`) || present.has(`${seen} *`)) continue;
      const entry = await options.audit.appendOnce({ event: 'row.applied', actor: WORKER_ACTOR, subject: outcome.batchId, data: { ...rowEntryData(outcome), recovered: true } }, rowEntryKey(outcome, runs.get(outcome.row) ?? 0));
      if (entry !== undefined) appended += 1;
    }
  }
  return appended;
}
