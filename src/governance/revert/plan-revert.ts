import { createHash } from 'node:crypto';
import type { SmartsheetApi } from '../../client/smartsheet-api.js';
import { UsageError } from '../../core/seatflow-error.js';
import { actionSchema, type Action } from '../../manifest/action.js';
import type { LoadedManifest } from '../../manifest/load-manifest.js';
import { describeSubject } from '../../plan/format-plan.js';
import { checkGuardrails, type GuardrailCheck, type GuardrailLimits } from '../../plan/guardrails.js';
import { RULES, VERDICTS, type BatchPlan, type PlannedRow } from '../../plan/planned-row.js';
import { preflight, type PreflightOptions } from '../../plan/preflight.js';
import type { BatchRecord, BatchStore } from '../../queue/batch-store.js';
import type { JobRegistry } from '../../queue/job-type.js';
import type { RowOutcome } from '../../queue/row-outcome.js';
import { canonicalJson } from '../audit/audit-entry.js';

export interface PlanRevertOptions {
  batchId: string;
  store: Pick<BatchStore, 'get' | 'outcomes' | 'getRow' | 'statesBefore'>;
  /** The job types: each says how its rows are inverted. */
  registry: JobRegistry;
  api: SmartsheetApi;
  guardrails: GuardrailLimits & { protectedAccounts: readonly string[] };
  /** config offboarding.reactivationWindowDays. */
  reactivationWindowDays: number;
  service?: Omit<PreflightOptions, 'api' | 'protectedAccounts'>;
  now?: () => number;
}

export interface RevertPlan {
  batch: BatchRecord;
  /** The revert as a batch plan: the inverse rows as the pre-flight judged them, then the rows that cannot be undone. */
  plan: BatchPlan;
  guardrails: GuardrailCheck;
  /** Rows of the batch that changed something (and are undone or refused here). */
  changed: number;
  /** Rows of the batch that changed nothing (skipped, failed, unchanged, cancelled): nothing to undo. */
  unchanged: number;
}

/** Options that make a revert's batch id: the batch it reverts (with the inverse rows' hash as its content). */
export function revertBatchOptions(batchId: string): Record<string, string> {
  return { revert: batchId };
}

interface InverseRow {
  action: Action;
  /** The row of the reverted batch it undoes. */
  of: number;
  notes: string[];
}

interface RefusedRow {
  of: RowOutcome;
  planned: PlannedRow | undefined;
  reason: string;
}

/**
 * The plan of undoing a batch: for each row that changed something, its job type's inverse from the state recorded
 * before the change, planned against live state by the usual pre-flight (so a user changed since, or gone, is found
 * now), and the rows that cannot be undone, refused with the reason. Changes nothing; the revert then runs as a batch
 * through the usual guardrails, approvals and queue.
 */
export async function planRevert(options: PlanRevertOptions): Promise<RevertPlan> {
  const { store, batchId } = options;
  const batch = await store.get(batchId);
  if (batch === undefined) throw new UsageError(`no batch ${batchId}`, 'List batches with: seatflow status');
  if (batch.state !== 'finished' && batch.state !== 'cancelled') {
    throw new UsageError(`batch ${batchId} is ${batch.state}: a batch is reverted once it has ended`, `Wait for it to finish, or stop it first: seatflow cancel ${batchId}`);
  }
  const before = await store.statesBefore(batchId);
  const nowMs = (options.now ?? Date.now)();
  const inverses: InverseRow[] = [];
  const refused: RefusedRow[] = [];
  let changed = 0;
  let unchanged = 0;
  for await (const outcome of store.outcomes(batchId)) {
    if (outcome.outcome !== 'succeeded' && outcome.outcome !== 'unknown') {
      unchanged += 1;
      continue;
    }
    changed += 1;
    const planned = await store.getRow(batchId, outcome.row);
    if (outcome.outcome === 'unknown') {
      refused.push({ of: outcome, planned, reason: `its outcome is unknown (it may or may not have applied): confirm it first with seatflow retry ${batchId}, then revert` });
      continue;
    }
    const jobType = planned?.action === undefined ? undefined : options.registry.get(planned.action.action);
    if (planned?.action === undefined || jobType?.inverse === undefined) {
      refused.push({ of: outcome, planned, reason: `no inverse is known for ${outcome.action}` });
      continue;
    }
    const inverse = jobType.inverse({
      action: planned.action,
      target: planned.target,
      before: before.get(outcome.row),
      detail: outcome.detail,
      changedAtMs: Date.parse(outcome.finishedAt),
      nowMs,
      reactivationWindowMs: options.reactivationWindowDays * 86_400_000,
    });
    if (inverse.kind === 'refused') {
      refused.push({ of: outcome, planned, reason: inverse.reason });
      continue;
    }
    for (const action of inverse.actions) {
      // The inverse is built from what Redis kept: it goes through the manifest's schema like any row.
      const parsed = actionSchema.safeParse(action);
      if (!parsed.success) refused.push({ of: outcome, planned, reason: `its inverse could not be built: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
      else inverses.push({ action: parsed.data, of: outcome.row, notes: inverse.notes ?? [] });
    }
  }

  const source = `revert of ${batchId} (${batch.source})`;
  const sha256 = createHash('sha256')
    .update(canonicalJson({ batchId, inverses: inverses.map((row) => [row.of, row.action]), refused: refused.map((row) => [row.of.row, row.reason]) }))
    .digest('hex');
  const manifest: LoadedManifest = {
    path: source,
    format: 'json',
    sha256,
    rows: inverses.map((inverse, i) => ({ row: i + 1, line: 0, action: inverse.action })),
    invalid: [],
    rowCount: inverses.length,
    validCount: inverses.length,
    warnings: [],
  };
  const judged =
    inverses.length === 0
      ? emptyPlan(source, sha256)
      : await preflight(manifest, { api: options.api, protectedAccounts: options.guardrails.protectedAccounts, ...options.service });
  const rows: PlannedRow[] = Array.from(judged.rows, (row) => {
    const inverse = inverses[row.row - 1]!;
    const undoes = `undoes row ${inverse.of} of ${batchId}`;
    return { ...row, reason: row.reason === undefined ? undoes : `${undoes}: ${row.reason}` };
  });
  for (const [i, { of, planned, reason }] of refused.entries()) {
    rows.push({
      row: inverses.length + i + 1,
      line: 0,
      action: planned?.action,
      actionName: of.action,
      verdict: 'refused',
      rule: RULES.notInvertible,
      reason: `row ${of.row} of ${batchId} (${planned === undefined ? (of.email ?? of.subject ?? '') : describeSubject(planned)}) cannot be undone: ${reason}`,
      target: planned?.target ?? {},
    });
  }
  const notes = [...new Set(inverses.flatMap((inverse) => inverse.notes.map((note) => `row ${inverse.of}: ${note}`)))];
  const plan: BatchPlan = {
    ...judged,
    rows,
    summary: summaryOf(rows),
    source: { path: source, sha256, format: 'json' },
    notes: [...(judged.notes ?? []), ...notes],
  };
  return { batch, plan, guardrails: checkGuardrails(plan, options.guardrails), changed, unchanged };
}

function emptyPlan(source: string, sha256: string): BatchPlan {
  return { rows: [], summary: summaryOf([]), apiCalls: 0, source: { path: source, sha256, format: 'json' } };
}

function summaryOf(rows: readonly PlannedRow[]): BatchPlan['summary'] {
  const summary = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Omit<BatchPlan['summary'], 'total'>;
  for (const row of rows) summary[row.verdict] += 1;
  return { total: rows.length, ...summary };
}
