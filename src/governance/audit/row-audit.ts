import type { Logger } from '../../core/logger.js';
import { UnreadableRecordError } from '../../core/unreadable-record.js';
import type { BatchRecord, BatchStore, BatchStoreHooks } from '../../queue/batch-store.js';
import type { SharedClock } from '../../queue/redis/redis-clock.js';
import { rowsWithOutcome, type RowOutcome } from '../../queue/row-outcome.js';
import type { UnrecordedEnd, UnrecordedEnds } from '../../queue/unrecorded-ends.js';
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
 * Makes an append to the audit trail and resolves whether it is kept: whether a replica holds it (always true without
 * replicas; see createReplicatedWrites, which may make the append again: a row's entry is appended once by its key).
 * A row's note goes only once its entry is kept: behind Sentinel, an entry the old master took just before a failover
 * and never passed on is gone, and with the note already gone nothing would append it again (soak seed 6508: an
 * offboarding's deactivation with no entry in the trail).
 */
export type KeepAppend = (append: () => Promise<unknown>) => Promise<boolean>;

/** Without replicas: an append made is kept. */
export const KEPT_WHEN_MADE: KeepAppend = async (append) => {
  await append();
  return true;
};

/**
 * The batch store's hook that appends one `row.applied` entry per row the service was asked to change: the one place
 * every outcome is recorded (src/queue), so every job type, step and retry is covered alike. Then the end's note (an
 * unrecorded end, written with the outcome) goes, once the entry is kept. A failed append is logged, never thrown: the
 * row's outcome stands either way (and stays in the batch's report), and its note stays for the catch-up
 * (`appendMissingRowEntries`), as it does when no replica took the entry.
 */
export function auditRowHooks(audit: AuditLog, ends: Pick<UnrecordedEnds, 'recorded'>, logger: Logger, keep: KeepAppend = KEPT_WHEN_MADE): BatchStoreHooks {
  return {
    async onOutcome(outcome, _batchFinished, run) {
      try {
        const append = () => audit.appendOnce({ event: 'row.applied', actor: WORKER_ACTOR, subject: outcome.batchId, data: rowEntryData(outcome) }, rowEntryKey(outcome, run));
        if (reachedTheService(outcome) && !(await keep(append))) return;
        await ends.recorded(outcome.batchId, outcome.row, run);
      } catch (error) {
        logger.error({ err: error, batch: outcome.batchId, row: outcome.row }, 'could not append the row to the audit log; the catch-up appends it');
      }
    },
  };
}

/** How old an unrecorded end must be before the catch-up appends it: a younger one is its worker's, a moment away. */
export const UNRECORDED_END_GRACE_MS = 10_000;

export interface CatchUpOptions {
  audit: AuditLog;
  store: Pick<BatchStore, 'get' | 'getOutcome' | 'openBatches' | 'unrecordedEnds'>;
  clock: SharedClock;
  graceMs?: number;
  /** Whether an append is kept (a replica holds it): the note goes only then. */
  keep?: KeepAppend;
}

/**
 * Appends the entry of every ended row whose end is still unrecorded (a process killed, or a Redis that stopped
 * answering, between a row's outcome and its entry), marked `recovered`; the once-key (`rowEntryKey`, with the run the
 * note names) keeps a live worker's entry and this one from both landing. Here a batch stops being open (open-batches.ts)
 * once every row has ended and every end is recorded. Returns how many entries it appended.
 */
export async function appendMissingRowEntries(options: CatchUpOptions): Promise<number> {
  const { audit, store } = options;
  const { openBatches, unrecordedEnds: ends } = store;
  const graceMs = options.graceMs ?? UNRECORDED_END_GRACE_MS;
  let appended = 0;
  // Once per look: a note counted young by a time read a little early is only left to the next look.
  const now = await options.clock.now();
  for await (const { batchId, mark } of openBatches.list()) {
    let young = false;
    for (const end of await ends.of(batchId)) {
      if (now - end.endedAtMs < graceMs) {
        young = true;
        continue;
      }
      if (await appendEntryOf(audit, store, batchId, end, options.keep ?? KEPT_WHEN_MADE)) appended += 1;
    }
    if (young) continue;
    // The batch is done once every row ended and no note is left, read in that order: a row that ends writes its note
    // with its outcome, so an end after this look is seen by the next one; a reopening in between raised the batch's
    // mark, and `leave` keeps it open.
    const batch = await readableBatch(store, batchId);
    if (batch === 'unreadable' || (batch !== undefined && (batch.state === 'submitting' || rowsWithOutcome(batch.counts) < batch.total))) continue;
    if ((await ends.of(batchId)).length === 0) await openBatches.leave(batchId, mark);
  }
  return appended;
}

/** Appends the entry of one unrecorded end (when its row reached the service) and removes its note; true when appended. */
async function appendEntryOf(audit: AuditLog, store: CatchUpOptions['store'], batchId: string, end: UnrecordedEnd, keep: KeepAppend): Promise<boolean> {
  const outcome = await store.getOutcome(batchId, end.row);
  // Still this end's note after the outcome was read? A retry that reopened the row and ended it again between the two
  // reads left a newer note, and the outcome read is that one's: the next look records it under its own run.
  const note = await store.unrecordedEnds.endOf(batchId, end.row);
  if (note === undefined || note.run !== end.run || note.endedAtMs !== end.endedAtMs) return false;
  let appended = false;
  // No outcome: `retry` reopened the row since, and the end it noted is gone with the outcome (the run's next end notes itself).
  if (outcome !== undefined && reachedTheService(outcome)) {
    const kept = await keep(async () => {
      // Made again by `keep` when no replica took it: once appended, the key answers undefined, and it stays appended.
      appended ||= (await audit.appendOnce({ event: 'row.applied', actor: WORKER_ACTOR, subject: batchId, data: { ...rowEntryData(outcome), recovered: true } }, rowEntryKey(outcome, end.run))) !== undefined;
    });
    // Not kept: the note stays, and the next look appends the entry if a failover dropped it.
    if (!kept) return appended;
  }
  await store.unrecordedEnds.recorded(batchId, end.row, end.run);
  return appended;
}

/** The batch's record, undefined when it is gone, or 'unreadable' when a failover left it without its creation. */
async function readableBatch(store: CatchUpOptions['store'], batchId: string): Promise<BatchRecord | undefined | 'unreadable'> {
  try {
    return await store.get(batchId);
  } catch (error) {
    if (error instanceof UnreadableRecordError) return 'unreadable';
    throw error;
  }
}
