import type { ApprovalRecord } from '../../../governance/approvals/approval-record.js';
import type { PlanLine } from '../../../governance/approvals/plan-fingerprint.js';
import { formatHold } from '../../../workflow/hold-duration.js';
import { simBadge, stateBadge } from '../badges.js';
import { cardTable } from '../card-table.js';
import { timeOf } from '../format.js';
import { approvalPlan, type OffboardingSettings } from './approval-plan.js';
import { html, type SafeHtml } from '../html.js';
import { callsToApply, callsToApplyLine, type CallRate } from '../../../plan/calls-at-rate.js';

export function approvalBadge(record: Pick<ApprovalRecord, 'state'>): SafeHtml {
  return stateBadge(record.state);
}

function requestsTable(records: readonly ApprovalRecord[], caption: string): SafeHtml {
  return cardTable({
    caption,
    className: 'approvals',
    items: records,
    columns: [
      { label: 'Change', names: true, cell: (record) => html`<a href="/approvals/${record.id}">${record.subject}</a><div class="muted mono">${record.id}</div>` },
      { label: 'Kind', cell: (record) => html`${record.kind} ${simBadge(record.sim)}` },
      { label: 'State', cell: (record) => html`${approvalBadge(record)}${record.staleDifference !== undefined && record.state === 'awaiting-approval' ? html`<div class="muted small">re-planned: the approved plan went stale</div>` : ''}` },
      { label: 'Requested', cell: (record) => html`${timeOf(record.requestedAt)}<div class="muted small">by ${record.requestedBy.name}${record.reason === undefined ? '' : ` · ${record.reason}`}</div>` },
      { label: 'Changes', cell: (record) => html`${record.changes}<div class="muted small">${record.destructive} destructive</div>` },
      { label: 'Why it needs approval', className: 'message', cell: (record) => record.why.join('; ') },
    ],
  });
}

/** Changes waiting for a second person, then the latest decided ones; refreshed every 15 s. */
export function approvalsLive(waiting: readonly ApprovalRecord[], decided: readonly ApprovalRecord[]): SafeHtml {
  return html`<div id="approvals-live" hx-get="/approvals/live" hx-trigger="every 15s" hx-swap="outerHTML">
<section aria-labelledby="waiting-title">
<h2 id="waiting-title">Waiting for approval (${waiting.length})</h2>
${waiting.length === 0 ? html`<p class="empty">Nothing waits for approval.</p>` : requestsTable(waiting, 'Changes waiting for approval, newest first')}
</section>
<section aria-labelledby="decided-title">
<h2 id="decided-title">Recently decided</h2>
${decided.length === 0 ? html`<p class="empty">No decisions yet.</p>` : requestsTable(decided, 'Changes approved or rejected, newest first')}
</section>
</div>`;
}

export function approvalsPage(waiting: readonly ApprovalRecord[], decided: readonly ApprovalRecord[]): SafeHtml {
  return html`<h1>Approvals</h1>
<p>Changes the approvals policy holds (<code>governance.approvals</code>) wait here after their plan, before anything is queued. Another person approves or rejects each one: never the one who asked. Before an approved change runs it is planned again against live state; if that plan differs from the one approved, it waits here again with the difference.</p>
${approvalsLive(waiting, decided)}`;
}

export interface ApprovalPageView {
  record: ApprovalRecord;
  lines: readonly PlanLine[];
  /** The configured rate: the plan says the calls applying it makes at it, as the requester's plan did. */
  rate: CallRate;
  /** An offboarding's hold and zone, from its stored input: its dates are shown in that zone. */
  offboarding?: OffboardingSettings | undefined;
  /** Why this operator cannot decide (their own request, their role, another target); undefined: they may. */
  cannotApprove?: string;
  cannotReject?: string;
  csrfToken: string;
}

/**
 * One change request: who asked and why, then the plan as its requester saw it (every row, the same words, dates in
 * the plan's zone), what changed when stale, and the decision after the plan — what is approved is read first.
 */
export function approvalPage(view: ApprovalPageView): SafeHtml {
  const { record } = view;
  const waiting = record.state === 'awaiting-approval';
  const zone = view.offboarding?.timeZone;
  const shown = view.lines.slice(0, 2000);
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/approvals">Approvals</a> › ${record.id}</nav>
<h1>${record.subject} ${simBadge(record.sim)}</h1>
<dl class="facts approval-facts">
  <div><dt>State</dt><dd>${approvalBadge(record)}</dd></div>
  <div><dt>Kind</dt><dd>${record.kind}</dd></div>
  <div><dt>Requested by</dt><dd>${record.requestedBy.name}</dd></div>
  <div><dt>Requested</dt><dd>${timeOf(record.requestedAt, zone)}</dd></div>
  <div><dt>Ticket or reason</dt><dd>${record.reason ?? '—'}</dd></div>
  <div><dt>Changes</dt><dd>${record.changes} (${record.destructive} destructive)</dd></div>
  ${view.offboarding === undefined ? '' : html`<div><dt>Hold</dt><dd>${formatHold(view.offboarding.holdMs)}</dd></div><div><dt>Times shown in</dt><dd>${zone ?? 'UTC'}</dd></div>`}
</dl>
<p><strong>Why it needs approval:</strong> ${record.why.join('; ')}</p>
${record.guardrails.length === 0 ? '' : html`<p><strong>Guardrails crossed</strong> (the requester confirmed): ${record.guardrails.join('; ')}</p>`}
${record.staleDifference !== undefined && waiting
  ? html`<section class="note stale" aria-labelledby="stale-title"><h2 id="stale-title">The approved plan went stale</h2><p>Planned again before it ran, the plan differed from the one approved (live state changed), so nothing ran. What differs now:</p><ul>${record.staleDifference.map((line) => html`<li>${line}</li>`)}</ul></section>`
  : ''}
${record.resultId === undefined ? '' : html`<p>Queued as <a href="/${record.resultId.startsWith('o') ? 'offboardings' : 'batches'}/${record.resultId}">${record.resultId}</a>.</p>`}
${record.rejectedBy === undefined ? '' : html`<p class="error">Rejected by ${record.rejectedBy} (${timeOf(record.rejectedAt, zone)}): ${record.rejectionReason ?? ''}</p>`}
<section aria-labelledby="plan-title">
<h2 id="plan-title">Plan (${view.lines.length} rows)</h2>
${record.callsToApply === undefined ? '' : html`<p class="calls">${callsToApplyLine(callsToApply(record.callsToApply, view.rate))}</p>`}
${approvalPlan(record, shown, view.offboarding)}
${view.lines.length > shown.length ? html`<p class="muted">The first ${shown.length} of ${view.lines.length} rows are shown (GET /v1/approvals/${record.id} has all).</p>` : ''}
<p class="muted small">Plan hash <span class="mono plan-hash">${record.planHash}</span>: what an approval approves.</p>
</section>
${waiting ? decisionForms(view) : ''}
<section aria-labelledby="history-title">
<h2 id="history-title">History</h2>
<ol class="history">${record.history.map((entry) => html`<li>${timeOf(entry.at, zone)} — <strong>${entry.event}</strong> by ${entry.by}${entry.reason === undefined ? '' : `: ${entry.reason}`}${entry.resultId === undefined ? '' : ` as ${entry.resultId}`} <span class="mono small">${entry.planHash.slice(0, 16)}…</span></li>`)}</ol>
</section>`;
}

function decisionForms(view: ApprovalPageView): SafeHtml {
  const { record } = view;
  return html`<section class="decision" aria-labelledby="decide-title">
<h2 id="decide-title">Decide</h2>
${view.cannotApprove === undefined
  ? html`<form method="post" action="/approvals/${record.id}/approve" class="approve-form">
  <input type="hidden" name="_csrf" value="${view.csrfToken}">
  <input type="hidden" name="planHash" value="${record.planHash}">
  <div class="check"><input id="approve-confirm" name="confirm" type="checkbox" value="true" required><label for="approve-confirm">I checked this plan (${record.planHash.slice(0, 16)}…): run its ${record.changes} change${record.changes === 1 ? '' : 's'}</label></div>
  <div class="field"><label for="approve-reason">Note <span class="muted">(optional, kept in the audit trail)</span></label><input id="approve-reason" name="reason" type="text" maxlength="500"></div>
  <button type="submit">Approve</button>
</form>`
  : html`<p class="note">${view.cannotApprove}</p>`}
${view.cannotReject === undefined
  ? html`<form method="post" action="/approvals/${record.id}/reject" class="reject-form">
  <input type="hidden" name="_csrf" value="${view.csrfToken}">
  <div class="field"><label for="reject-reason">Why reject it (required)</label><input id="reject-reason" name="reason" type="text" maxlength="500" required></div>
  <button type="submit" class="danger">Reject</button>
</form>`
  : ''}
</section>`;
}
