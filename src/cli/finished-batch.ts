import type { Command } from 'commander';
import { UsageError } from '../core/seatflow-error.js';
import type { BatchRecord } from '../queue/batch-store.js';
import { countsLine } from './batch-summary.js';

export interface AgainFlags {
  again?: boolean;
}

/** `--again` for `run` and `submit`: the same file once more, as a new batch. */
export function addAgainOption(command: Command): Command {
  return command.option('--again', 'run a manifest whose batch already finished once more, as a new batch (live state may have changed since)');
}

/** With --again the batch's identity also names this moment, so the same file makes a new batch. */
export function againOptionOf(flags: AgainFlags, now: Date = new Date()): { again?: string } {
  return flags.again === true ? { again: now.toISOString() } : {};
}

/**
 * The same file submitted again after its batch finished: nothing is queued twice, and instead of a quiet "already
 * exists" the person learns when it ran and how to run it once more (exit 2).
 */
export function refuseFinishedResubmission(batch: BatchRecord, manifest: string, command: 'run' | 'submit'): void {
  if (batch.state !== 'finished') return;
  throw new UsageError(
    `${manifest} already ran as batch ${batch.id}: created ${batch.createdAt}, finished ${batch.finishedAt ?? '?'} (${countsLine(batch)}); nothing was queued`,
    `To run it again against today's state: seatflow ${command} ${manifest} --again   (the old report: seatflow report ${batch.id})`,
  );
}
