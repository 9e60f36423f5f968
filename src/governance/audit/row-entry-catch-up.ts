import type { Logger } from '../../core/logger.js';
import { appendMissingRowEntries, type CatchUpOptions } from './row-audit.js';

/** How often a worker looks for ended rows whose audit entry is missing (and once when it starts). */
export const ROW_ENTRY_CATCH_UP_EVERY_MS = 30_000;

export interface RowEntryCatchUp {
  /** Stops looking; waits for a look under way. */
  close(): Promise<void>;
}

/**
 * Appends, now and then every `everyMs`, the entries of ended rows that have none (row-audit.ts): not only at a
 * worker's start, since the process that should have appended one may be another that never starts again, and a row's
 * end may come days after its batch was created. One look at a time: a slow one is not stacked with the next.
 */
export function startRowEntryCatchUp(options: CatchUpOptions & { logger: Logger; everyMs?: number }): RowEntryCatchUp {
  let running: Promise<void> | undefined;
  let stopped = false;
  const look = () => {
    if (running !== undefined || stopped) return;
    running = appendMissingRowEntries(options)
      .then((appended) => {
        if (appended > 0) options.logger.warn({ appended }, 'rows whose audit entry a crash left out were appended to the audit trail (marked recovered)');
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, 'could not look for rows missing from the audit trail now; looking again later'))
      .finally(() => (running = undefined));
  };
  look();
  const timer = setInterval(look, options.everyMs ?? ROW_ENTRY_CATCH_UP_EVERY_MS);
  timer.unref();
  return {
    async close() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
