import { OUTCOMES } from '../../../queue/row-outcome.js';
import type { ScheduleView } from '../../../reconcile/schedule-book.js';
import { relativeTime, timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { plural } from '../../../core/plural.js';

function batchSummary(batch: NonNullable<ScheduleView['lastBatch']>): SafeHtml {
  const counts = OUTCOMES.filter((outcome) => batch.counts[outcome] > 0).map((outcome) => html`<li class="outcome-${outcome}"><span class="n">${batch.counts[outcome]}</span> ${outcome}</li>`);
  return html` <span class="badge state-${batch.state}">${batch.state}</span> <span class="muted small">${plural(batch.total, 'row')}</span>${counts.length === 0 ? '' : html`<ul class="counts">${counts}</ul>`}`;
}

/** What the last run did, as `seatflow schedule list` says it: its batch, why it changed nothing, or its error. */
function lastRunCell(view: ScheduleView, now: number): SafeHtml {
  const last = view.lastRun;
  if (last === undefined) return html`<span class="muted">never</span>`;
  const planned = Object.entries(last.plan)
    .filter(([, n]) => n > 0)
    .map(([verdict, n]) => `${n} ${verdict}`)
    .join(', ');
  const what =
    last.error !== undefined ? html`<p class="error">failed: ${last.error}</p>`
    : last.heldBecause !== undefined ? html`<p>changed nothing: ${last.heldBecause.join('; ')}</p>`
    : last.batchId !== undefined
      ? html`<p>batch <a href="/batches/${last.batchId}">${last.batchId}</a>${last.batchExisted === true ? ' (made by an earlier firing)' : ''}${view.lastBatch === undefined ? '' : batchSummary(view.lastBatch)}</p>`
    : html`<p>${last.plan.change ?? 0} change${last.plan.change === 1 ? '' : 's'} planned${last.applied ? '' : ', plan only (dry run): nothing was changed'}</p>`;
  return html`${timeOf(last.finishedAt)}<div class="muted small">${relativeTime(last.finishedAt, now)} · tick ${timeOf(last.tick)}</div>${what}${planned === '' ? '' : html`<div class="muted small">plan: ${planned}</div>`}`;
}

/** The table of schedules; it asks for itself again every 30 s (next and last runs move at each firing). */
export function schedulesLive(schedules: readonly ScheduleView[], now: number): SafeHtml {
  const poll = html` hx-get="/schedules/live" hx-trigger="every 30s" hx-swap="outerHTML"`;
  if (schedules.length === 0) {
    return html`<div id="schedules-live"${poll}><p class="empty">No reconciliation schedules for this target.</p></div>`;
  }
  return html`<div id="schedules-live"${poll}>
<table class="schedules">
<caption class="visually-hidden">Reconciliation schedules of this target, by name</caption>
<thead><tr><th scope="col">Schedule</th><th scope="col">When</th><th scope="col">Mode</th><th scope="col">Policy</th><th scope="col">Next run</th><th scope="col">Last run</th><th scope="col">Report</th></tr></thead>
<tbody>
${schedules.map(
  (view) => html`<tr>
  <th scope="row">${view.name}</th>
  <td><code>${view.cron ?? '?'}</code><div class="muted small">${view.tz ?? 'UTC'}</div></td>
  <td>${view.apply ? html`<span class="badge mode-apply">applies</span>` : html`<span class="badge mode-dry-run">dry run</span>`}</td>
  <td class="path mono">${view.policyPath}</td>
  <td>${view.next === undefined ? html`<span class="muted">none</span>` : html`${timeOf(view.next)}<div class="muted small">${relativeTime(view.next, now)}</div>`}</td>
  <td>${lastRunCell(view, now)}</td>
  <td class="path mono">${view.lastRun === undefined || view.lastRun.report === '' ? '—' : view.lastRun.report}</td>
</tr>`,
)}
</tbody>
</table>
</div>`;
}

export function schedulesPage(schedules: readonly ScheduleView[], now: number): SafeHtml {
  return html`<h1>Schedules</h1>
<p>Licence reconciliation on a schedule: at each tick a worker runs the policy, writes its plan report and, for a schedule that applies, submits the changes as a batch (a dry run only writes the report). Ticks are fired by <code>seatflow worker</code> processes (and <code>seatflow serve --workers N</code>) of this target, once per tick however many run.</p>
<p class="note">This page is read-only. Add, replace or remove schedules with the CLI: <code>seatflow schedule add NAME POLICY --cron "0 6 * * 1" --tz Europe/Berlin [--apply]</code>, <code>seatflow schedule remove NAME</code>; run one now with <code>seatflow schedule run NAME</code>.</p>
${schedulesLive(schedules, now)}`;
}
