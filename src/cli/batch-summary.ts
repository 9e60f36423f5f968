import type { BatchRecord, BatchStore } from '../queue/batch-store.js';
import { OPEN_ROW_STATES } from '../queue/row-lifecycle.js';
import { OUTCOMES, rowsWithOutcome, type RowOutcome } from '../queue/row-outcome.js';
import { printable, printed } from '../core/printable.js';
import { plural } from '../core/plural.js';
import { STILL_SUBMITTING_NOTE } from '../queue/submission-note.js';

/** Rows that have their outcome, whichever it is. */
export function rowsDone(batch: BatchRecord): number {
  return rowsWithOutcome(batch.counts);
}

/**
 * One line of counts, e.g. `12 rows: 9 succeeded, 1 unchanged, 2 failed`; rows without an outcome by their state
 * (`3 scheduled, 1 running`): what the rows' states say, never inferred from what is missing. Rows of batches queued
 * before rows had states are `pending`.
 */
export function countsLine(batch: BatchRecord): string {
  const parts = OUTCOMES.filter((o) => batch.counts[o] > 0).map((o) => `${batch.counts[o]} ${o}`);
  const open = OPEN_ROW_STATES.filter((state) => batch.rowStates[state] > 0);
  for (const state of open) parts.push(`${batch.rowStates[state]} ${state}`);
  const pending = batch.total - rowsDone(batch) - open.reduce((sum, state) => sum + batch.rowStates[state], 0);
  if (pending > 0) parts.push(`${pending} pending`);
  return `${plural(batch.total, 'row')}: ${parts.join(', ') || 'none yet'}`;
}

/** The summary printed at the end of `run` and by `status BATCH`. */
export async function formatBatchSummary(batch: BatchRecord, store: BatchStore, options: { failuresShown?: number } = {}): Promise<string> {
  const lines = [
    `Batch ${batch.id} (${batch.state})${batch.sim ? '  [SIMULATION: embedded reference server, demo data]' : ''}`,
    `  manifest: ${printable(batch.source)}`,
    `  created:  ${batch.createdAt}${batch.finishedAt ? `   finished: ${batch.finishedAt}` : ''}`,
    `  ${countsLine(batch)}`,
  ];
  if (batch.message) lines.push(`  note: ${printable(batch.message)}`);
  if (batch.state === 'submitting') lines.push(`  note: ${STILL_SUBMITTING_NOTE}`);
  const limit = options.failuresShown ?? 20;
  const notDone = batch.counts.failed + batch.counts.unknown + batch.counts.skipped;
  if (notDone > 0 && limit > 0) {
    const lists: Partial<Record<RowOutcome['outcome'], string[]>> = { failed: [], unknown: [], skipped: [] };
    for await (const outcome of store.outcomes(batch.id)) {
      const list = lists[outcome.outcome];
      if (list === undefined || list.length > limit) continue;
      const who = outcome.email ?? (outcome.userId !== undefined ? String(outcome.userId) : (outcome.subject ?? ''));
      const code = [outcome.category, outcome.status, outcome.errorCode, outcome.rule].filter((v) => v !== undefined).join(' ');
      const crashed = outcome.crashedAttempts === undefined ? '' : ` (${outcome.attempts} attempts answered, ${outcome.crashedAttempts} ended by a worker crash)`;
      list.push(printed`    row ${outcome.row} (line ${outcome.line}) ${outcome.action} ${who}: ${outcome.message ?? ''}${code ? ` [${code}]` : ''}${crashed}`);
    }
    const show = (title: string, list: string[], count: number): void => {
      if (list.length === 0) return;
      lines.push(title, ...list.slice(0, limit));
      if (count > limit) lines.push(`    … ${count - limit} more in the report`);
    };
    show('  failed (tried, did not succeed):', lists.failed ?? [], batch.counts.failed);
    show(`  unknown (may have been applied; the service could not be read to tell): check them with: seatflow retry ${batch.id}`, lists.unknown ?? [], batch.counts.unknown);
    show('  skipped (not tried: refused, not found or invalid before anything ran):', lists.skipped ?? [], batch.counts.skipped);
  }
  return `${lines.join('\n')}\n`;
}

/** 0 when every row succeeded, was unchanged or skipped; 1 when some failed, are unknown, were cancelled or the batch stopped. */
export function exitCodeOf(batch: BatchRecord): number {
  if (batch.state === 'stopped') return 1;
  return needsRetry(batch) ? 1 : 0;
}

/** Rows `seatflow retry` would take up again. */
function needsRetry(batch: BatchRecord): boolean {
  return batch.counts.failed > 0 || batch.counts.unknown > 0 || batch.counts.cancelled > 0;
}

/** What to say when a manifest finds its existing batch: nothing is queued twice, and how to take it up again. */
export function existingBatchLine(batch: BatchRecord): string {
  const again = batch.state === 'cancelled' || batch.state === 'stopped' || needsRetry(batch);
  return (
    `Batch ${batch.id} already exists (same manifest, options and target; state ${batch.state}): nothing queued twice` +
    (again ? `. To run its failed, unknown or cancelled rows again: seatflow retry ${batch.id}` : '') +
    '\n'
  );
}
