import { createHash } from 'node:crypto';
import { UsageError } from '../core/seatflow-error.js';
import { actionSchema, type Action } from '../manifest/action.js';
import { classifyResourceRow } from '../plan/classify-resource-row.js';
import { checkGuardrails, type GuardrailCheck, type GuardrailLimits } from '../plan/guardrails.js';
import { countsOf } from '../plan/plan-rows.js';
import type { PreflightFacts } from '../plan/preflight-facts.js';
import type { BatchPlan, PlannedRow, ResolvedTarget } from '../plan/planned-row.js';

/** A row a migration wants, with what it adds to the pre-flight's reason (why this row, in the migration's words). */
export interface WantedRow {
  action: Exclude<Action, { user: unknown }>;
  note?: string;
}

/** A migration that runs as one ordinary batch (columns, webhooks): its rows as the pre-flight judged them. */
export interface JudgedPlan {
  plan: BatchPlan;
  guardrails: GuardrailCheck;
}

/**
 * The rows of a migration judged by the pre-flight's own rules (classify-resource-row.ts) from what the migration read,
 * as a batch plan: the plan printers, the guardrails, approvals and the queue take it as they take a manifest's. The
 * source's hash covers the rows, so the same migration over the same live state is the same batch.
 */
export interface JudgedPlanOptions {
  apiCalls: number;
  guardrails: GuardrailLimits;
  notes?: string[];
  /**
   * When the migration read the live state (service clock), and the state before of a row to change as that read saw
   * it (the shape of its job type's readBefore): kept in the row's target (readAtPlan), so the row is not read again
   * for revert while the reading stands. Either absent: the rows read for themselves.
   */
  readAtMs?: number;
  stateBefore?: (action: WantedRow['action'], target: ResolvedTarget) => Record<string, unknown> | undefined;
}

export function judgedPlan(title: string, wanted: readonly WantedRow[], facts: PreflightFacts, options: JudgedPlanOptions): JudgedPlan {
  const readAt = options.readAtMs === undefined ? undefined : new Date(options.readAtMs).toISOString();
  const problems: string[] = [];
  const rows: PlannedRow[] = wanted.map(({ action: built, note }, i) => {
    // Built from a standard or a request, a row still goes through the manifest's schema, as any row does.
    const parsed = actionSchema.safeParse(built);
    if (!parsed.success) problems.push(`  ${built.action} ${'sheetId' in built ? `on sheet ${built.sheetId}` : `of webhook ${built.webhookId}`}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    const action = (parsed.success ? parsed.data : built) as WantedRow['action'];
    const judged = classifyResourceRow(action, facts);
    const state = readAt === undefined || judged.verdict !== 'change' ? undefined : options.stateBefore?.(action, judged.target);
    const target = state === undefined || readAt === undefined ? judged.target : { ...judged.target, readAtPlan: { readAt, state } };
    const reason = [note, judged.reason].filter((part) => part !== undefined && part !== '').join('; ');
    return {
      row: i + 1,
      line: 0,
      action,
      actionName: action.action,
      verdict: judged.verdict,
      ...(reason === '' ? {} : { reason }),
      ...(judged.rule === undefined ? {} : { rule: judged.rule }),
      ...(judged.errorCode === undefined ? {} : { errorCode: judged.errorCode }),
      target,
    };
  });
  if (problems.length > 0) throw new UsageError(`${title}: the rows it would run are not valid:\n${problems.slice(0, 20).join('\n')}`, 'Check the values of the standard or the request (no control characters; options only for dropdown columns).');
  const sha256 = createHash('sha256').update(JSON.stringify(rows.map((row) => [row.action, row.verdict]))).digest('hex');
  const plan: BatchPlan = {
    rows,
    summary: countsOf(rows).summary(),
    apiCalls: options.apiCalls,
    source: { path: title, sha256, format: 'json' },
    ...(options.notes === undefined || options.notes.length === 0 ? {} : { notes: options.notes }),
  };
  return { plan, guardrails: checkGuardrails(plan, options.guardrails) };
}
