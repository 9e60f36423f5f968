import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { describeSubject } from '../plan/format-plan.js';
import { countsOf } from '../plan/plan-rows.js';
import type { BatchPlan, PlannedRow, Verdict } from '../plan/planned-row.js';
import type { BatchRecord, BatchStore } from './batch-store.js';
import type { RowOutcome } from './row-outcome.js';
import { rowsQueueName } from './queue-keys.js';
import type { RowJobData } from './row-job.js';

export interface SubmitOptions {
  /** Options that change what the batch does are part of its id (e.g. the --action filter, --skip-invalid). */
  options?: Record<string, string | boolean | undefined>;
  /** Where it runs: the API base URL, or `sim:<instance>` for an embedded reference server. */
  target: string;
  sim: boolean;
  /**
   * What the batch is, when not its manifest's bytes: a policy run names its run (`weekly-seats@2026-11-23T05:00:00Z`),
   * so the same run submitted twice finds its batch while next week's run is a new one, whatever rows each produced.
   */
  identity?: string;
  now?: () => Date;
}

export interface SubmitResult {
  batch: BatchRecord;
  /** False when the same manifest (same content, options and target) had been submitted before. */
  created: boolean;
  /** Jobs added by this call. */
  jobsAdded: number;
}

/**
 * The id of a batch: a hash of the manifest's bytes, the options and the target, so that submitting the same file
 * again finds the batch instead of queuing it anew.
 */
export function batchIdOf(sha256: string, target: string, options: SubmitOptions['options'] = {}): string {
  const canonical = Object.keys(options)
    .sort()
    .filter((key) => options[key] !== undefined && options[key] !== false)
    .map((key) => `${key}=${String(options[key])}`)
    .join('&');
  return `b${createHash('sha256').update(`${sha256}\n${target}\n${canonical}`).digest('hex').slice(0, 12)}`;
}

/** The BullMQ queue of a target (named in queue-keys.ts, with the other keys). */
export const queueNameOf = rowsQueueName;

/**
 * Verdicts that end a row before anything runs, and how. Rows the pre-flight refused, could not find or found in
 * conflict are `skipped` (seatflow made no call for them; the service would have refused), with the rule and reason in
 * the outcome, the summary and the report; `failed` is kept for rows that were tried. So exit code 1 means "something
 * went wrong while executing", and a batch whose only problems were known before it started exits 0 with them listed.
 */
const AT_ONCE: Record<Exclude<Verdict, 'change'>, { outcome: RowOutcome['outcome']; category?: string }> = {
  'no-op': { outcome: 'unchanged' },
  refused: { outcome: 'skipped', category: 'Refused' },
  'not-found': { outcome: 'skipped', category: 'NotFound' },
  conflict: { outcome: 'skipped', category: 'Conflict' },
  invalid: { outcome: 'skipped', category: 'Invalid' },
};

/**
 * Creates the batch record, ends the rows that need no call at once and adds one job per actionable row with the id
 * `<batch>-<row>`. Safe to call again after a crash: existing outcomes are kept and BullMQ ignores a job id it has.
 */
export async function submitBatch(queue: Queue<RowJobData>, store: BatchStore, plan: BatchPlan, options: SubmitOptions): Promise<SubmitResult> {
  const now = options.now ?? (() => new Date());
  const id = batchIdOf(options.identity ?? plan.source.sha256, options.target, options.options);
  const actionable = countsOf(plan.rows).summary().change;
  const createdAt = now();
  const created = await store.create(
    {
      id,
      source: plan.source.path,
      sha256: plan.source.sha256,
      createdAt: createdAt.toISOString(),
      total: plan.rows.length,
      queued: actionable,
      sim: options.sim,
      target: options.target,
      queueName: queue.name,
    },
    createdAt.getTime(),
  );
  const existing = await store.get(id);
  if (existing === undefined) throw new Error(`batch ${id} vanished while being submitted`);
  if (!created && existing.state !== 'submitting') return { batch: existing, created: false, jobsAdded: 0 };

  // One pass over the rows, never all of them in memory at once. Rows that end at once are recorded 500 at a time
  // (one connection pipelines them: a million skipped rows took a million round trips one after the other); rows to
  // run are queued 500 at a time (row-lifecycle.ts: each row saved and its state queued before its job exists, as a
  // worker reads its row from Redis; a resumed submission leaves rows that ended or are queued as they are). The batch
  // stays `submitting` until the end, so no outcome recorded meanwhile can finish it.
  const recording: Promise<boolean>[] = [];
  const slice: PlannedRow[] = [];
  let jobsAdded = 0;
  const queueSlice = async () => {
    const results = await store.rowLifecycle.queue(queue, id, slice.map((row) => ({ row: row.row, planned: row })));
    jobsAdded += results.filter((result) => result === 'queued').length;
    slice.length = 0;
  };
  for (const row of plan.rows) {
    if (row.verdict === 'change') {
      slice.push(row);
      if (slice.length >= 500) await queueSlice();
      continue;
    }
    recording.push(store.recordOutcome(immediateOutcome(id, row, options.sim, now())));
    if (recording.length >= 500) await Promise.all(recording.splice(0));
  }
  await Promise.all(recording);
  if (slice.length > 0) await queueSlice();
  await store.transition(id, ['submitting'], 'queued');
  await store.finishIfComplete(id, now());
  const batch = await store.get(id);
  return { batch: batch ?? existing, created, jobsAdded };
}

function immediateOutcome(batchId: string, row: PlannedRow, sim: boolean, at: Date): RowOutcome {
  const rule = AT_ONCE[row.verdict as Exclude<Verdict, 'change'>];
  const problems = row.problems?.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ');
  return {
    batchId,
    row: row.row,
    line: row.line,
    action: row.actionName,
    outcome: rule.outcome,
    ...whoOf(row),
    ...(rule.category !== undefined ? { category: rule.category } : {}),
    ...(row.rule !== undefined ? { rule: row.rule } : {}),
    ...(row.errorCode !== undefined ? { errorCode: row.errorCode } : {}),
    message: row.reason ?? problems ?? (row.verdict === 'no-op' ? 'already in the requested state' : row.verdict),
    attempts: 0,
    finishedAt: at.toISOString(),
    sim,
  };
}

/**
 * Whom or what a row is about, for outcomes: the user as resolved by the pre-flight or, when it was not found, as the
 * manifest named it; for an invalid row, the e-mail it gave as written; for a row that names no user (column,
 * discussion, webhook), `subject` says what it names, e.g. `sheet 2094857361029384 column "Status"` or `webhook 123`.
 */
export function whoOf(row: PlannedRow): { email?: string; userId?: number; subject?: string } {
  const named = row.action !== undefined && 'user' in row.action ? row.action.user : undefined;
  const email = row.target.email ?? named?.email ?? row.rawEmail;
  const userId = row.target.userId ?? (named !== undefined && 'userId' in named ? named.userId : undefined);
  const subject = row.action !== undefined && named === undefined ? describeSubject(row) : undefined;
  return { ...(email !== undefined ? { email } : {}), ...(userId !== undefined ? { userId } : {}), ...(subject !== undefined ? { subject } : {}) };
}

/**
 * What every outcome of a row says about the row itself, from its planned row; `fallbackAction` names the action when
 * the planned row is missing from Redis.
 */
export function rowIdentity(batchId: string, row: number, planned: PlannedRow | undefined, fallbackAction: string, sim: boolean) {
  return {
    batchId,
    row,
    line: planned?.line ?? 0,
    action: planned?.actionName ?? fallbackAction,
    ...(planned !== undefined ? whoOf(planned) : {}),
    sim,
  };
}
