import type { LeaverView } from '../../../workflow/offboarding-status.js';
import type { UndoResult } from '../../../workflow/undo-offboarding.js';
import type { WorkflowRecord } from '../../../workflow/workflow-store.js';
import { timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import type { Notice } from '../notice.js';
import { phaseBadge } from './holds-page.js';

export interface UndoConfirmView {
  workflow: WorkflowRecord;
  /** The one leaver asked for; absent: every leaver still on hold. */
  user?: string;
  /** The leavers undo would act on now. */
  leavers: LeaverView[];
  /** Why the one leaver asked for cannot be undone now. */
  blocked?: string;
  /** Workers connected to the offboarding's step queue. */
  workers: number;
  /** Who is signed in: the undo is recorded as theirs. */
  operator: string;
  csrfToken: string;
}

function crumbs(workflow: WorkflowRecord): SafeHtml {
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/holds">Holds</a> › <a href="/offboardings/${workflow.id}">${workflow.id}</a></nav>`;
}

/** Undo asks first, on a page of its own, so that a stray click or key press changes nothing. */
export function undoConfirmPage(view: UndoConfirmView): SafeHtml {
  const { workflow } = view;
  const back = html`<a class="button secondary" href="/offboardings/${workflow.id}">No, go back</a>`;
  if (view.blocked !== undefined || view.leavers.length === 0) {
    return html`${crumbs(workflow)}<section class="narrow"><h1>Undo offboarding</h1>
<p class="note" role="note">${view.blocked ?? 'Nothing to undo: no leaver of this offboarding is on hold any more.'}</p>
<p><a href="/offboardings/${workflow.id}">Back to the offboarding</a></p></section>`;
  }
  const deactivated = view.leavers.some((leaver) => leaver.phase === 'holding');
  const scheduled = view.leavers.some((leaver) => leaver.phase === 'scheduled');
  return html`${crumbs(workflow)}
<section class="narrow">
<h1>Undo offboarding</h1>
<p>${workflow.source} ${workflow.sim ? html`<span class="badge sim">SIMULATION</span>` : ''}</p>
<p>${view.user === undefined ? html`Undo the offboarding of these <strong>${view.leavers.length}</strong> leavers?` : html`Undo the offboarding of <strong>${view.user}</strong>?`}</p>
<ul>${view.leavers.map((leaver) => html`<li>${leaver.email} ${phaseBadge(leaver.phase)}${leaver.undoUntil === undefined ? '' : html` <span class="muted small">undo possible until ${timeOf(leaver.undoUntil)}</span>`}${leaver.undoCost === undefined ? '' : html`<div class="small seat-cost">Cost: ${leaver.undoCost}.</div>`}</li>`)}</ul>
<p>The removal is cancelled.${deactivated ? html` A leaver seatflow has already deactivated (<strong>holding</strong>) is reactivated by a row of the offboarding's reactivate batch. <strong>A reactivation assigns a Member seat (paid)</strong>; where the leaver held a lower seat before, a downgrade gives it back right after.` : ''}${scheduled ? html` A leaver still <strong>scheduled</strong> is simply never deactivated.` : ''} The undo is recorded as done by you, <strong>${view.operator}</strong>, from the dashboard.</p>
${deactivated && view.workers === 0 ? html`<p class="note">No seatflow worker is connected now: the reactivation waits in the queue until one runs (<code>seatflow worker</code>, or <code>seatflow serve --workers 1</code>).</p>` : ''}
<form method="post" action="/offboardings/${workflow.id}/undo">
  <input type="hidden" name="_csrf" value="${view.csrfToken}">
  ${view.user === undefined ? '' : html`<input type="hidden" name="user" value="${view.user}">`}
  <button type="submit" class="danger">${view.user === undefined ? `Yes, undo all ${view.leavers.length}` : 'Yes, undo'}</button>
  ${back}
</form>
</section>`;
}

/** What undo did, per leaver (undone, and whether a reactivation was queued, or refused and why), for the offboarding page. */
export function undoNotice(results: readonly UndoResult[]): Notice {
  if (results.length === 0) return { kind: 'note', text: 'Nothing to undo: no leaver of this offboarding is on hold any more.' };
  const refused = results.filter((result) => result.result === 'refused').length;
  const before = results.filter((result) => result.result === 'already-undone').length;
  const word = { undone: 'undone', 'already-undone': 'already undone', refused: 'NOT undone' } as const;
  const reactivating = results.some((result) => result.reactivating);
  return {
    kind: refused > 0 ? 'error' : 'ok',
    text: `Undo: ${results.length - refused - before} undone${before === 0 ? '' : `, ${before} already undone before`}${refused === 0 ? '' : `, ${refused} not undone`}.${reactivating ? ' A worker runs the reactivation; the table below shows when it is done.' : ''}`,
    items: results.map((result) => ({
      text: `${result.email}: ${word[result.result]} — ${result.message}${result.seat === undefined ? '' : ` Cost: ${result.seat}.`}`,
      failed: result.result === 'refused',
    })),
  };
}
