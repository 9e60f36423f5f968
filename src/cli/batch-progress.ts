import type { BatchRecord, BatchStore } from '../queue/batch-store.js';
import { OUTCOMES } from '../queue/row-outcome.js';
import { countsLine, rowsDone } from './batch-summary.js';

export interface WatchOptions {
  /** Banner shown with the bar (the target; SIMULATION with --sim). */
  label: string;
  stream?: NodeJS.WriteStream;
  pollMs?: number;
  signal?: AbortSignal;
}

const ENDED = new Set(['finished', 'cancelled', 'stopped']);

/**
 * Follows a batch until it finishes, is cancelled or stops: a live bar on a terminal, a plain line every few seconds
 * otherwise (logs and CI). Resolves with the last record.
 */
export async function watchBatch(store: BatchStore, batchId: string, options: WatchOptions): Promise<BatchRecord> {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  // Short: the run's end is noticed this much later at most (one small Redis read per poll).
  const pollMs = options.pollMs ?? 100;
  // Loaded only for a terminal: a service's or a script's run never draws the bar.
  const cliProgress = tty ? (await import('cli-progress')).default : undefined;
  const bar = cliProgress
    ? new cliProgress.SingleBar(
        { stream, format: ' {bar} {percentage}% | {value}/{total} rows | {counts} | ETA {eta_formatted}', hideCursor: true, etaBuffer: 50 },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  stream.write(`${options.label}\n`);
  let started = false;
  let lastLine = 0;
  for (;;) {
    const batch = await store.get(batchId);
    if (batch === undefined) throw new Error(`batch ${batchId} disappeared from Redis`);
    const done = rowsDone(batch);
    const counts = OUTCOMES.filter((o) => batch.counts[o] > 0).map((o) => `${o} ${batch.counts[o]}`).join(' ') || 'starting';
    if (bar) {
      if (!started) bar.start(batch.total, done, { counts });
      else bar.update(done, { counts });
      started = true;
    } else if (Date.now() - lastLine >= 5000 || ENDED.has(batch.state)) {
      stream.write(`[${new Date().toISOString()}] ${batch.id} ${batch.state}: ${countsLine(batch)}\n`);
      lastLine = Date.now();
    }
    if (ENDED.has(batch.state) || options.signal?.aborted === true) {
      bar?.stop();
      return batch;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
