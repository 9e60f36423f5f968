import { OUTCOMES } from '../../../queue/row-outcome.js';
import type { Config } from '../../../core/config.js';
import type { ScheduleView } from '../../../reconcile/schedule-book.js';
import { describeScheduleLimits } from '../../../reconcile/schedule-limits.js';

/** The guardrails that hold a scheduled run without limits of its own. */
type ScheduleGuardrails = Pick<Config['guardrails'], 'destructiveMaxCount' | 'destructiveMaxShare'>;
import { cardTable } from '../card-table.js';
import { relativeTime, timeOf } from '../format.js';
import { fileNameOf } from '../story-facts.js';
import { html, type SafeHtml } from '../html.js';
import { stateBadge } from '../badges.js';
import type { Notice } from '../notice.js';
import { plural } from '../../../core/plural.js';

function batchSummary(batch: NonNullable<ScheduleView['lastBatch']>): SafeHtml {
  const counts = OUTCOMES.filter((outcome) => batch.counts[outcome] > 0).map((outcome) => html`<li class="outcome-${outcome}"><span class="n">${batch.counts[outcome]}</span> ${outcome}</li>`);
  return html` ${stateBadge(batch.state)} <span class="muted small">${plural(batch.total, 'row')}</span>${counts.length === 0 ? '' : html`<ul class="counts">${counts}</ul>`}`;
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
    : last.nothingToChange === true ? html`<p>nothing to change: no batch</p>`
    : last.batchId !== undefined
      ? html`<p>batch <a href="/batches/${last.batchId}">${last.batchId}</a>${last.batchExisted === true ? ' (made by an earlier firing)' : ''}${view.lastBatch === undefined ? '' : batchSummary(view.lastBatch)}</p>`
    : html`<p>${last.plan.change ?? 0} change${last.plan.change === 1 ? '' : 's'} planned${last.applied ? '' : ', plan only (dry run): nothing was changed'}</p>`;
  return html`${timeOf(last.finishedAt, view.tz)}<div class="muted small">${relativeTime(last.finishedAt, now)} · tick ${timeOf(last.tick, view.tz)}</div>${what}${planned === '' ? '' : html`<div class="muted small">plan: ${planned}</div>`}`;
}

/** The last run's plan report, to download (the server keeps it under its data folder; its path says nothing here). */
function reportLinks(view: ScheduleView): SafeHtml | string {
  if (view.lastRun === undefined || view.lastRun.report === '') return '—';
  const base = `/schedules/${encodeURIComponent(view.name)}/report`;
  return html`<a id="report-${view.name}-csv" href="${base}.csv" download>CSV</a> · <a id="report-${view.name}-json" href="${base}.json" download>JSON</a>`;
}

/**
 * The table of schedules; it asks for itself again every 10 s (next and last runs move at each firing, and a run
 * started from here ends within seconds). Links keep their ids, so keyboard focus survives the refresh.
 */
export function schedulesLive(schedules: readonly ScheduleView[], now: number, guardrails: ScheduleGuardrails): SafeHtml {
  const poll = html` hx-get="/schedules/live" hx-trigger="every 10s" hx-swap="outerHTML"`;
  if (schedules.length === 0) {
    return html`<div id="schedules-live"${poll}><p class="empty">No reconciliation schedules for this target.</p></div>`;
  }
  return html`<div id="schedules-live"${poll}>
${cardTable({
  caption: 'Reconciliation schedules of this target, by name',
  className: 'schedules',
  items: schedules,
  columns: [
    { label: 'Schedule', names: true, cell: (view) => view.name },
    { label: 'When', cell: (view) => html`<code>${view.cron ?? '?'}</code><div class="muted small">${view.tz ?? 'UTC'}</div>` },
    { label: 'Mode', cell: (view) => (view.apply ? html`${stateBadge('applies')}<div class="muted small">${describeScheduleLimits(view.limits, guardrails)}</div>` : stateBadge('dry-run')) },
    { label: 'Policy', cell: (view) => html`<span class="mono" title="${view.policyPath}">${fileNameOf(view.policyPath)}</span>` },
    { label: 'Next run', cell: (view) => (view.next === undefined ? html`<span class="muted">none</span>` : html`${timeOf(view.next, view.tz)}<div class="muted small">${relativeTime(view.next, now)}</div>`) },
    { label: 'Last run', className: 'message', cell: (view) => lastRunCell(view, now) },
    { label: 'Report', cell: (view) => reportLinks(view) },
    { label: 'Action', action: true, cell: (view) => html`<a class="button" id="run-${view.name}" href="/schedules/${encodeURIComponent(view.name)}/run" aria-label="Run now: ${view.name}…">Run now…</a>` },
  ],
})}
</div>`;
}

export function schedulesPage(schedules: readonly ScheduleView[], now: number, guardrails: ScheduleGuardrails): SafeHtml {
  return html`<h1>Schedules</h1>
<p>Licence reconciliation on a schedule: at each tick a worker runs the policy, writes its plan report and, for a schedule that applies, submits the changes as a batch (a dry run only writes the report). Ticks are fired by <code>seatflow worker</code> processes (and <code>seatflow serve --workers N</code>) of this target, once per tick however many run.</p>
<p class="note">Run a schedule now from here (<strong>Run now…</strong>, as <code>seatflow schedule run NAME</code> does). Add, replace or remove schedules with the CLI: <code>seatflow schedule add NAME POLICY --cron "0 6 * * 1" --tz Europe/Berlin [--apply]</code>, <code>seatflow schedule remove NAME</code>.</p>
${schedulesLive(schedules, now, guardrails)}`;
}

function describeRun(view: ScheduleView): SafeHtml {
  return view.apply
    ? html`It reads the policy <span class="mono">${fileNameOf(view.policyPath)}</span> now, writes its plan report and <strong>submits the changes as a batch</strong> (guardrails crossed hold the run: nobody can confirm it).`
    : html`It reads the policy <span class="mono">${fileNameOf(view.policyPath)}</span> now and writes its plan report; it is a dry run: <strong>nothing is changed</strong>.`;
}

/** Running a schedule asks first, on a page of its own, so that a stray click changes nothing. */
export function runConfirmPage(view: ScheduleView, csrfToken: string): SafeHtml {
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/schedules">Schedules</a> › ${view.name}</nav>
<section class="narrow">
<h1>Run ${view.name} now</h1>
<p>Run the schedule <strong>${view.name}</strong> once, now, as a tick at this time. ${describeRun(view)}</p>
<p>A worker of this target runs it (<code>seatflow worker</code>, or <code>seatflow serve --workers N</code>); its last run on the Schedules page shows what it did.</p>
<form method="post" action="/schedules/${encodeURIComponent(view.name)}/run">
  <input type="hidden" name="_csrf" value="${csrfToken}">
  <button type="submit"${view.apply ? html` class="danger"` : ''}>Yes, run it now</button>
  <a class="button secondary" href="/schedules">No, go back</a>
</form>
</section>`;
}

/** What happened when a run was asked for: queued, and whether a worker is there to take it. */
export function runQueuedNotice(name: string, queued: { jobId: string; workers: number }): Notice {
  return queued.workers === 0
    ? { kind: 'note', text: `The run of ${name} is queued (${queued.jobId}), but no schedule worker is connected now: it waits in the queue until one starts (seatflow worker, or seatflow serve --workers 1).` }
    : { kind: 'ok', text: `The run of ${name} is queued (${queued.jobId}); ${plural(queued.workers, 'schedule worker')} connected. Its last run below shows what it did once it ends.` };
}
