import { plural } from '../../../core/plural.js';
import { firstRows } from '../../../manifest/row-store.js';
import { migrationHeadline } from '../../../migrate/format-migration.js';
import type { PlannedMigration } from '../../../migrate/plan-migration.js';
import { describeSubject } from '../../../plan/format-plan.js';
import type { WorkflowStatus } from '../../../workflow/person-status.js';
import { stateBadge } from '../badges.js';
import { cardTable } from '../card-table.js';
import { timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { planConfirmation } from './plan-confirmation.js';
import { batchPlanCalls } from '../../../plan/batch-plan-calls.js';
import { callsToApply, type CallRate } from '../../../plan/calls-at-rate.js';

const VERDICT_ORDER = ['change', 'no-op', 'refused', 'not-found', 'conflict'] as const;

/** The three migrations' forms: each plans from live state and changes nothing until its plan is confirmed. */
export function migrationForms(csrfToken: string, error?: string): SafeHtml {
  const csrf = html`<input type="hidden" name="_csrf" value="${csrfToken}">`;
  return html`<h1>Migrations</h1>
<p>Each migration reads the live state of the target and shows its plan: who or what gets which call, and what the service would refuse, with the reason. Nothing changes until you confirm the plan on the next page. The same as <code>seatflow migrate</code> on the command line.</p>
${error === undefined ? '' : html`<div class="error" role="alert"><p>${error}</p></div>`}
<section aria-labelledby="domain-title"><h2 id="domain-title">A mail domain change</h2>
<form method="post" action="/migrations/plan" class="plan-form">${csrf}<input type="hidden" name="migration" value="domain">
  <label for="from">Old domain</label><input id="from" name="from" type="text" required placeholder="acme.com" maxlength="253">
  <label for="to">New domain</label><input id="to" name="to" type="text" required placeholder="acme.io" maxlength="253">
  <label for="validatedDomains">Domains validated for your plan <span class="muted">(Admin Center → Domain management; comma-separated; the API does not tell them)</span></label><input id="validatedDomains" name="validatedDomains" type="text" maxlength="2000">
  <label for="users">Only these users <span class="muted">(optional: their current addresses, one a line; everyone on the old domain otherwise)</span></label><textarea id="users" name="users" rows="4" maxlength="12000"></textarea>
  <div class="check"><input id="removeOld" name="removeOld" type="checkbox" value="true"><label for="removeOld">Delete the old address once the new one is primary (a revert cannot bring it back)</label></div>
  <label for="confirmWithinDays">Days to wait for owners to confirm their new address</label><input id="confirmWithinDays" name="confirmWithinDays" type="number" min="1" max="90" value="14">
  <button type="submit">Preview the domain migration</button>
</form></section>
<section aria-labelledby="columns-title"><h2 id="columns-title">Columns to a standard</h2>
<form method="post" action="/migrations/plan" class="plan-form">${csrf}<input type="hidden" name="migration" value="columns">
  <label for="sheets">Sheet ids, one a line</label><textarea id="sheets" name="sheets" rows="4" required maxlength="4000"></textarea>
  <label for="spec">The standard (JSON, as jobs/examples/column-standard.json)</label><textarea id="spec" name="spec" rows="8" required maxlength="12000"></textarea>
  <button type="submit">Preview the column migration</button>
</form></section>
<section aria-labelledby="webhooks-title"><h2 id="webhooks-title">Webhooks</h2>
<form method="post" action="/migrations/plan" class="plan-form">${csrf}<input type="hidden" name="migration" value="webhooks">
  <label for="mode">What to do</label><select id="mode" name="mode"><option value="repoint">Re-point callback URLs</option><option value="rotate-secrets">Rotate shared secrets</option><option value="disable-unused">Turn off unused webhooks</option></select>
  <label for="repointFrom">Re-point: old URL prefix</label><input id="repointFrom" name="repointFrom" type="url" maxlength="2000">
  <label for="repointTo">Re-point: new URL prefix</label><input id="repointTo" name="repointTo" type="url" maxlength="2000">
  <label for="secretsTo">Rotate: the file (absolute path on the machine of the workers) the new secrets are written to</label><input id="secretsTo" name="secretsTo" type="text" maxlength="1000">
  <label for="days">Turn off: days without a callback</label><input id="days" name="days" type="number" min="1" value="90">
  <button type="submit">Preview the webhook migration</button>
</form></section>`;
}

/** A migration's plan: what it will do in a few lines, the counts, the confirmation, then every row with its reason. */
export function migrationPlanPage(options: { planned: PlannedMigration; previewId: string; rate: CallRate; csrfToken: string }): SafeHtml {
  const { planned } = options;
  const { plan } = planned;
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/migrations">Migrations</a> › plan</nav>
<h1>${plan.source.path}</h1>
<ul class="note">${migrationHeadline(planned).map((line) => html`<li>${line.trim()}</li>`)}</ul>
<ul class="counts verdicts">${VERDICT_ORDER.map((verdict) => html`<li class="verdict-${verdict}"><span class="n">${plan.summary[verdict]}</span> ${verdict}</li>`)}</ul>
<p class="muted">${plural(plan.summary.total, 'row')} · ${plural(plan.apiCalls, 'API call')} spent reading live state</p>
${(plan.notes ?? []).length === 0 ? '' : html`<ul class="note">${(plan.notes ?? []).map((note) => html`<li>${note}</li>`)}</ul>`}
${plan.summary.change === 0
  ? html`<p>Nothing to change. <a href="/migrations">Back to the migrations</a></p>`
  : planConfirmation({ guardrails: planned.guardrails, calls: callsToApply(batchPlanCalls(plan), options.rate), action: `/migrations/${options.previewId}/queue`, csrfToken: options.csrfToken, confirms: `run its ${plural(plan.summary.change, 'change')}`, submitLabel: 'Queue the migration', startOver: '/migrations' })}
<section aria-labelledby="rows-title">
<h2 id="rows-title">Rows</h2>
${cardTable({
  caption: 'Rows of the migration, with their verdicts',
  className: 'rows',
  items: firstRows(plan.rows, 1000),
  columns: [
    { label: 'Row', cell: (row) => row.row },
    { label: 'Action', cell: (row) => row.actionName },
    { label: 'Subject', names: true, cell: (row) => describeSubject(row) },
    { label: 'Verdict', cell: (row) => stateBadge(row.verdict) },
    { label: 'Why', cell: (row) => html`${row.reason ?? ''}${row.rule === undefined ? '' : html`<div class="muted small">${row.rule}${row.errorCode === undefined ? '' : ` ${row.errorCode}`}</div>`}` },
  ],
})}
${plan.rows.length > 1000 ? html`<p class="muted">The first 1000 of ${plan.rows.length} rows are shown.</p>` : ''}
</section>`;
}

/** Where a domain migration's users stand: phase, the last step, the next check, and why the rest were not migrated. */
export function domainMigrationPage(status: WorkflowStatus): SafeHtml {
  const { workflow } = status;
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/migrations">Migrations</a> › ${workflow.id}</nav>
<h1>Domain migration ${workflow.id}</h1>
<p>${workflow.source} · ${workflow.state}</p>
<ul class="counts">${Object.entries(status.phases).map(([phase, n]) => html`<li><span class="n">${n}</span> ${phase}</li>`)}</ul>
${cardTable({
  caption: 'Users of the migration and where each stands',
  className: 'rows',
  items: status.persons.slice(0, 2000),
  columns: [
    { label: 'Row', cell: (person) => person.row },
    { label: 'User', names: true, cell: (person) => person.email },
    { label: 'New address', cell: (person) => person.detail.newEmail ?? '' },
    { label: 'Phase', cell: (person) => stateBadge(person.phase) },
    { label: 'Next', cell: (person) => (person.next === undefined ? '' : html`${person.next.step} ${timeOf(person.next.dueAt)}`) },
    { label: 'Why', cell: (person) => html`${person.reason ?? ''}${person.detail.errorCode === undefined ? '' : html`<div class="muted small">${person.detail.errorCode}</div>`}` },
  ],
})}`;
}
