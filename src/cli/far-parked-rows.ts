import { longestRequestMs } from '../client/longest-request-ms.js';
import type { Config } from '../core/config.js';
import type { BatchRecord } from '../queue/batch-store.js';
import type { BatchSystem } from '../queue/batch-system.js';
import type { ParkedRow } from '../queue/parked-rows.js';
import { longestParkMs, PARKED_MS } from '../queue/row-patience.js';

/** Room beyond the longest park seatflow sets, for BullMQ's own backoff after an internal error (at most minutes). */
const SLACK_MS = 3600 * 1000;

/**
 * Rows parked further ahead than seatflow ever parks one: a stopped batch's rows wait at most PARKED_MS, any other
 * row at most `longestParkMs` (the widest gap between late confirm-only reads) or the time a request may still land.
 * More means a wrong date, e.g. a worker whose clock ran far ahead, and the batch would not finish.
 */
export async function farParkedRows(system: BatchSystem, config: Config, batch: BatchRecord): Promise<ParkedRow[]> {
  if (batch.state === 'finished' || batch.state === 'cancelled') return [];
  const longest = batch.state === 'stopped' ? PARKED_MS : Math.max(longestParkMs(config.retry.maxDelayMs), longestRequestMs(config.api.timeouts));
  return system.rowsParkedBeyond(batch, longest + SLACK_MS);
}

export function farParkedLines(batch: BatchRecord, rows: readonly ParkedRow[]): string {
  if (rows.length === 0) return '';
  const shown = rows.slice(0, 10).map((r) => `    row ${r.row}: due ${dueText(r.dueAtMs)}`);
  return [
    `  warning: ${rows.length} row(s) parked implausibly far ahead (a machine's clock may be wrong); they would not run in time:`,
    ...shown,
    ...(rows.length > shown.length ? [`    … ${rows.length - shown.length} more`] : []),
    `  Check the clocks of the worker machines, then run them now with: seatflow retry ${batch.id}`,
    '',
  ].join('\n');
}

function dueText(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms after 1970` : date.toISOString();
}
