import { formatHold } from '../../../workflow/hold-duration.js';
import { UNDOABLE_PHASES } from '../../../workflow/leaver-state.js';
import type { LeaverView, OffboardingStatus } from '../../../workflow/offboarding-status.js';
import { announcement } from '../announce.js';
import { scrollBox, timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { dueCell, phaseBadge, undoUntilCell } from './holds-page.js';

export interface OffboardingView {
  status: OffboardingStatus;
  /** False for an offboarding of another target: shown, but undo cannot act on it from this server. */
  onThisTarget: boolean;
  now: number;
  /** The announcement key the page already showed (`?announced=` of the live part). */
  announced?: string | undefined;
}

/** What the live region says: where the leavers stand, news whenever a leaver moves to another phase. */
export function phasesNews(status: OffboardingStatus): { key: string; text: string } {
  const phases = Object.entries(status.phases).map(([phase, n]) => `${n} ${phase}`).join(', ');
  return { key: phases.replace(/[^a-z0-9]+/gi, '-').slice(0, 40), text: `Offboarding ${status.workflow.state}: ${phases || 'no leavers'}.` };
}

function lastCell(last: LeaverView['last']): SafeHtml {
  if (last === undefined) return html`—`;
  return html`${last.step} <strong>${last.outcome}</strong><div class="muted small">${timeOf(last.at)}</div>${last.message === undefined ? '' : html`<div class="small">${last.message}</div>`}`;
}

function notesCell(leaver: LeaverView): SafeHtml {
  const lines: SafeHtml[] = [];
  if (leaver.reason !== undefined) lines.push(html`<li>${leaver.reason}</li>`);
  if (leaver.undo !== undefined) lines.push(html`<li>undone by ${leaver.undo.by} at ${timeOf(leaver.undo.at)}</li>`);
  for (const note of leaver.notes) lines.push(html`<li>${note}</li>`);
  return lines.length === 0 ? html`` : html`<ul class="notes">${lines}</ul>`;
}

/**
 * Everything of the offboarding page that moves: the facts, the overdue warning, and one row per leaver as
 * `seatflow status OFFBOARDING` prints it. While the offboarding is open it asks for itself again every 5 s.
 */
export function offboardingLive(view: OffboardingView): SafeHtml {
  const { status, now } = view;
  const { workflow } = status;
  const canUndo = view.onThisTarget && status.leavers.some((leaver) => UNDOABLE_PHASES.has(leaver.phase));
  const news = phasesNews(status);
  const poll = workflow.state === 'finished' ? '' : html` hx-get="/offboardings/${workflow.id}/live?announced=${encodeURIComponent(news.key)}" hx-trigger="every 5s" hx-swap="outerHTML"`;
  const batches = [
    ['deactivate', workflow.deactivateBatch],
    ['remove', workflow.removeBatch],
    ['reactivate', workflow.reactivateBatch],
  ] as const;
  return html`<div id="offboarding-live"${poll}>
${announcement(news.key, view.announced, news.text)}
<div class="actions">${canUndo ? html`<a class="button danger" id="undo-all-${workflow.id}" href="/offboardings/${workflow.id}/undo">Undo every leaver still on hold…</a>` : ''}</div>
<section class="live" aria-labelledby="facts-title">
<h2 id="facts-title" class="visually-hidden">Facts</h2>
<dl class="facts">
  <div><dt>State</dt><dd><span class="badge workflow-${workflow.state}">${workflow.state}</span></dd></div>
  <div><dt>Submitted</dt><dd>${timeOf(workflow.createdAt)}</dd></div>
  <div><dt>Hold</dt><dd>${formatHold(workflow.holdMs)}</dd></div>
  <div><dt>Leavers</dt><dd>${Object.entries(status.phases).map(([phase, n]) => `${n} ${phase}`).join(', ') || '—'}</dd></div>
  <div><dt>Step workers connected</dt><dd>${status.workers}</dd></div>
  ${workflow.transferTo === undefined ? '' : html`<div><dt>Transfer to</dt><dd>${workflow.transferTo}</dd></div>`}
  ${workflow.timeZone === undefined ? '' : html`<div><dt>Time zone</dt><dd>${workflow.timeZone}</dd></div>`}
  <div><dt>Step batches</dt><dd>${batches.map(([name, id], index) => html`${index === 0 ? '' : ' · '}<a id="step-${name}" href="/batches/${id}">${name}</a>`)}</dd></div>
  <div><dt>Report (one row per leaver)</dt><dd><a id="report-csv" href="/offboardings/${workflow.id}/report.csv">CSV</a> · <a id="report-jsonl" href="/offboardings/${workflow.id}/report.jsonl">JSON Lines</a></dd></div>
</dl>
${status.overdue > 0
  ? html`<p class="error" role="alert">${status.overdue} step${status.overdue === 1 ? ' is' : 's are'} due and no worker has taken ${status.overdue === 1 ? 'it' : 'them'}${status.workers === 0 ? ' (no worker is connected)' : ''}: start one with <code>seatflow worker</code>.</p>`
  : ''}
${view.onThisTarget ? '' : html`<p class="note">This offboarding was submitted for ${workflow.target}, not this server's target: undo it with <code>seatflow undo ${workflow.id}</code> against that target.</p>`}
</section>
${scrollBox(
  `Leavers of offboarding ${workflow.id}`,
  html`<table class="leavers">
<caption class="visually-hidden">Leavers of offboarding ${workflow.id}, in file order</caption>
<thead><tr><th scope="col">Row</th><th scope="col">Leaver</th><th scope="col">Phase</th><th scope="col">Last step</th><th scope="col">Next step</th><th scope="col">Undo until</th><th scope="col">Transfer to</th><th scope="col">Reason and notes</th><th scope="col">Action</th></tr></thead>
<tbody>
${status.leavers.map(
  (leaver) => html`<tr>
  <td>${leaver.row}</td>
  <th scope="row">${leaver.email}${leaver.userId === undefined ? '' : html`<div class="muted small">user ${leaver.userId}</div>`}</th>
  <td>${phaseBadge(leaver.phase)}</td>
  <td>${lastCell(leaver.last)}</td>
  <td>${dueCell(leaver.next, now)}</td>
  <td>${undoUntilCell(leaver.undoUntil, now)}</td>
  <td>${leaver.transferUsed ?? leaver.transferTo ?? '—'}</td>
  <td>${notesCell(leaver)}</td>
  <td>${view.onThisTarget && UNDOABLE_PHASES.has(leaver.phase)
    ? html`<a class="button danger" id="undo-${workflow.id}-${leaver.row}" href="/offboardings/${workflow.id}/undo?user=${encodeURIComponent(leaver.email)}" aria-label="Undo the offboarding of ${leaver.email}…">Undo…</a>`
    : ''}</td>
</tr>`,
)}
</tbody>
</table>`,
)}
</div>`;
}

export function offboardingPage(view: OffboardingView): SafeHtml {
  const { workflow } = view.status;
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/holds">Holds</a> › ${workflow.id}</nav>
<h1>${workflow.source} ${workflow.sim ? html`<span class="badge sim">SIMULATION</span>` : ''}</h1>
<p class="muted">Offboarding <span class="mono">${workflow.id}</span> · target ${workflow.target} · the same as <code>seatflow status ${workflow.id}</code></p>
${offboardingLive({ ...view, announced: phasesNews(view.status).key })}`;
}
