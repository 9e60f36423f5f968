import { ACTION_NAMES } from '../../../manifest/action.js';
import { firstRows } from '../../../manifest/row-store.js';
import { describeSubject } from '../../../plan/format-plan.js';
import type { GuardrailCheck } from '../../../plan/guardrails.js';
import type { BatchPlan } from '../../../plan/planned-row.js';
import { html, type SafeHtml } from '../html.js';
import { formErrorBlock } from '../notice.js';
import { planConfirmation } from './plan-confirmation.js';
import { planRowsTable } from './plan-tables.js';
import { plural } from '../../../core/plural.js';
import { batchPlanCalls } from '../../../plan/batch-plan-calls.js';
import { callsToApply, type CallRate } from '../../../plan/calls-at-rate.js';

/** The upload form: a file input that is also the drop zone (dropping a file on it works without script). */
export function planForm(csrfToken: string, error?: { message: string; problems?: string[] }, values: { ignoreColumns: string } = { ignoreColumns: '' }): SafeHtml {
  return html`<h1>Plan a manifest</h1>
<p>Choose or drop a manifest (CSV, JSON or JSON Lines). Seatflow checks every row against the live state of the target and shows what it would do. Nothing changes until you submit the batch on the next page.</p>
${formErrorBlock(error)}
<form method="post" action="/plan" enctype="multipart/form-data" class="plan-form">
  <input type="hidden" name="_csrf" value="${csrfToken}">
  <label for="manifest" class="dropzone" id="dropzone"><span>Drop a manifest here, or choose a file</span>
    <input id="manifest" name="manifest" type="file" accept=".csv,.tsv,.txt,.json,.jsonl,.ndjson" required>
  </label>
  <label for="action">Action for rows that name none</label>
  <select id="action" name="action"><option value="">(each row names its action)</option>${ACTION_NAMES.map((name) => html`<option value="${name}">${name}</option>`)}</select>
  <div class="check"><input id="skipInvalid" name="skipInvalid" type="checkbox" value="true"><label for="skipInvalid">Go on with the valid rows when some rows are invalid</label></div>
  <label for="ignoreColumns">Columns that mean nothing here (optional, comma-separated: a file whose other columns hold dates or e-mails is refused until they are named here)</label>
  <input id="ignoreColumns" name="ignoreColumns" type="text" maxlength="2000" value="${values.ignoreColumns}">
  <button type="submit">Preview the plan</button>
</form>`;
}

const VERDICT_ORDER = ['change', 'no-op', 'refused', 'not-found', 'conflict', 'invalid'] as const;

export function planPreviewPage(options: { previewId: string; name: string; plan: BatchPlan; guardrails: GuardrailCheck; warnings: string[]; rate: CallRate; csrfToken: string }): SafeHtml {
  const { plan, guardrails } = options;
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/plan">Plan a manifest</a> › ${options.name}</nav>
<h1>Plan of ${options.name}</h1>
<ul class="counts verdicts">${VERDICT_ORDER.map((verdict) => html`<li class="verdict-${verdict}"><span class="n">${plan.summary[verdict]}</span> ${verdict}</li>`)}</ul>
<p class="muted">${plural(plan.summary.total, 'row')} · ${plural(plan.apiCalls, 'API call')} spent on the pre-flight${plan.organizationUsers === undefined ? '' : ` · ${plural(plan.organizationUsers, 'user')} in the organization`}</p>
${options.warnings.length === 0 ? '' : html`<ul class="note">${options.warnings.map((warning) => html`<li>${warning}</li>`)}</ul>`}
<section aria-labelledby="rows-title">
<h2 id="rows-title">Rows</h2>
${planRowsTable(
  firstRows(plan.rows, 1000).map((row) => ({ row: row.row, line: row.line, action: row.actionName, subject: describeSubject(row), verdict: row.verdict, reason: row.reason, rule: row.rule, problems: row.problems })),
  'Rows of the plan, with their verdicts',
)}
${plan.rows.length > 1000 ? html`<p class="muted">The first 1000 of ${plan.rows.length} rows are shown.</p>` : ''}
</section>
${planConfirmation({ guardrails, calls: callsToApply(batchPlanCalls(plan), options.rate), action: `/plan/${options.previewId}/submit`, csrfToken: options.csrfToken, confirms: `run its ${plural(plan.summary.change, 'change')}`, submitLabel: 'Submit the batch', startOver: '/plan' })}`;
}
