import { formatHold } from '../../../workflow/hold-duration.js';
import { UNDOABLE_PHASES } from '../../../workflow/leaver-state.js';
import type { LeaverView, OffboardingStatus } from '../../../workflow/offboarding-status.js';
import type { ChangeStory } from '../../requests/change-story.js';
import { announcement } from '../announce.js';
import { cardTable } from '../card-table.js';
import { timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { stateBadge } from '../badges.js';
import { fileNameOf, storyFacts } from '../story-facts.js';
import { dueCell, phaseBadge, undoUntilCell } from './holds-page.js';

export interface OffboardingView {
  status: OffboardingStatus;
  /** False for an offboarding of another target: shown, but undo cannot act on it from this server. */
  onThisTarget: boolean;
  now: number;
  /** The announcement key the page already showed (`?announced=` of the live part). */
  announced?: string | undefined;
  /** Who asked for it, why, who approved it (governance). */
  story?: ChangeStory | undefined;
}

/** What the live region says: where the leavers stand, news whenever a leaver moves to another phase. */
export function phasesNews(status: OffboardingStatus): { key: string; text: string } {
  const phases = Object.entries(status.statuses).map(([state, n]) => `${n} ${state}`).join(', ');
  return { key: phases.replace(/[^a-z0-9]+/gi, '-').slice(0, 40), text: `Offboarding ${status.workflow.state}: ${phases || 'no leavers'}.` };
}

function lastCell(last: LeaverView['last'], zone: string | undefined): SafeHtml {
  if (last === undefined) return html`—`;
  return html`${last.step} <strong>${last.outcome}</strong><div class="muted small">${timeOf(last.at, zone)}</div>${last.message === undefined ? '' : html`<div class="small">${last.message}</div>`}`;
}

function notesCell(leaver: LeaverView, zone: string | undefined): SafeHtml {
  const lines: SafeHtml[] = [];
  if (leaver.reason !== undefined) lines.push(html`<li>${leaver.reason}</li>`);
  if (leaver.undo !== undefined) lines.push(html`<li>undone by ${leaver.undo.by} at ${timeOf(leaver.undo.at, zone)}</li>`);
  for (const line of leaver.happened) lines.push(html`<li>${line}</li>`);
  for (const note of leaver.notes) lines.push(html`<li>${note}</li>`);
  return lines.length === 0 ? html`` : html`<ul class="notes">${lines}</ul>`;
}

/**
 * Everything of the offboarding page that moves: the facts, the overdue warning, and one row per leaver as
 * `seatflow status OFFBOARDING` prints it, each with its Undo… where undo can still act. While the offboarding is open
 * it asks for itself again every 5 s. Times are in the zone the offboarding was planned in (UTC on hover).
 */
export function offboardingLive(view: OffboardingView): SafeHtml {
  const { status, now } = view;
  const { workflow } = status;
  const zone = workflow.timeZone;
  const undoable = status.leavers.filter((leaver) => UNDOABLE_PHASES.has(leaver.phase));
  const canUndo = view.onThisTarget && undoable.length > 0;
  const news = phasesNews(status);
  const poll = workflow.state === 'finished' ? '' : html` hx-get="/offboardings/${workflow.id}/live?announced=${encodeURIComponent(news.key)}" hx-trigger="every 5s" hx-swap="outerHTML"`;
  const batches = [
    ['deactivate', workflow.deactivateBatch],
    ['remove', workflow.removeBatch],
    ['reactivate', workflow.reactivateBatch],
  ] as const;
  return html`<div id="offboarding-live"${poll}>
${announcement(news.key, view.announced, news.text)}
<section class="live" aria-labelledby="facts-title">
<h2 id="facts-title" class="visually-hidden">Facts</h2>
<dl class="facts">
  <div><dt>State</dt><dd>${stateBadge(workflow.state)}</dd></div>
  <div><dt>Submitted</dt><dd>${timeOf(workflow.createdAt, zone)}</dd></div>
  ${storyFacts(view.story, zone)}
  <div><dt>Hold</dt><dd>${formatHold(workflow.holdMs)}</dd></div>
  <div><dt>Leavers</dt><dd>${Object.entries(status.statuses).map(([state, n]) => `${n} ${state}`).join(', ') || '—'}</dd></div>
  <div><dt>Step workers connected</dt><dd>${status.workers}</dd></div>
  ${workflow.transferTo === undefined ? '' : html`<div><dt>Transfer to</dt><dd>${workflow.transferTo}</dd></div>`}
  <div><dt>Times shown in</dt><dd>${zone ?? 'UTC'}</dd></div>
  <div><dt>Step batches</dt><dd>${batches.map(([name, id], index) => html`${index === 0 ? '' : ' · '}<a id="step-${name}" href="/batches/${id}">${name}</a>`)}</dd></div>
  <div><dt>Report (one row per leaver)</dt><dd><a id="report-csv" href="/offboardings/${workflow.id}/report.csv">CSV</a> · <a id="report-jsonl" href="/offboardings/${workflow.id}/report.jsonl">JSON Lines</a></dd></div>
</dl>
${status.overdue > 0
  ? html`<p class="error" role="alert">${status.overdue} step${status.overdue === 1 ? ' is' : 's are'} due and no worker has taken ${status.overdue === 1 ? 'it' : 'them'}${status.workers === 0 ? ' (no worker is connected)' : ''}: start one with <code>seatflow worker</code>.</p>`
  : ''}
${view.onThisTarget ? '' : html`<p class="note">This offboarding was submitted for ${workflow.target}, not this server's target: undo it with <code>seatflow undo ${workflow.id}</code> against that target.</p>`}
</section>
<div class="heading"><h2 id="leavers-title">Leavers</h2>${canUndo ? html`<a class="button subtle-danger" id="undo-all-${workflow.id}" href="/offboardings/${workflow.id}/undo">Undo all ${undoable.length} still on hold…</a>` : ''}</div>
${cardTable({
  caption: `Leavers of offboarding ${workflow.id}, in file order`,
  className: 'leavers',
  items: status.leavers,
  columns: [
    { label: 'Leaver', names: true, cell: (leaver) => html`${leaver.email}<div class="muted small">row ${leaver.row}${leaver.userId === undefined ? '' : ` · user ${leaver.userId}`}</div>` },
    // What happened (the rows' states and outcomes), not only what the phase intends: an undo whose reactivation failed is red.
    { label: 'Status', cell: (leaver) => phaseBadge(leaver.status) },
    { label: 'Last step', cell: (leaver) => lastCell(leaver.last, zone) },
    { label: 'Next step', cell: (leaver) => dueCell(leaver.next, now, zone) },
    { label: 'Undo until', cell: (leaver) => undoUntilCell(leaver.undoUntil, now, zone) },
    { label: 'Transfer to', cell: (leaver) => leaver.transferUsed ?? leaver.transferTo ?? '—' },
    { label: 'Reason and notes', cell: (leaver) => notesCell(leaver, zone) },
    {
      label: 'Action',
      action: true,
      cell: (leaver) =>
        view.onThisTarget && UNDOABLE_PHASES.has(leaver.phase)
          ? html`<a class="button danger" id="undo-${workflow.id}-${leaver.row}" href="/offboardings/${workflow.id}/undo?user=${encodeURIComponent(leaver.email)}" aria-label="Undo the offboarding of ${leaver.email}…">Undo…</a>`
          : '',
    },
  ],
})}
</div>`;
}

export function offboardingPage(view: OffboardingView): SafeHtml {
  const { workflow } = view.status;
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/holds">Holds</a> › ${workflow.id}</nav>
<h1>${fileNameOf(workflow.source)} ${workflow.sim ? html`<span class="badge sim">SIMULATION</span>` : ''}</h1>
<p class="muted">Offboarding <span class="mono">${workflow.id}</span>${view.story === undefined ? '' : ` · uploaded by ${view.story.requestedBy}`} · target ${workflow.target} · the same as <code>seatflow status ${workflow.id}</code></p>
${offboardingLive({ ...view, announced: phasesNews(view.status).key })}`;
}
