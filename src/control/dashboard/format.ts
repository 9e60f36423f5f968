import type { BatchRecord } from '../../queue/batch-store.js';
import { OUTCOMES, rowsWithOutcome } from '../../queue/row-outcome.js';
import type { BatchActivity } from './batch-activity.js';
import { html, type SafeHtml } from './html.js';
import { stateBadge } from './badges.js';

export function durationOf(batch: BatchRecord, now = Date.now()): string {
  const end = batch.finishedAt === undefined || batch.finishedAt === '' ? now : Date.parse(batch.finishedAt);
  const seconds = Math.max(0, Math.round((end - Date.parse(batch.createdAt)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** `2026-11-23T12:00:05.123Z` → `2026-11-23 12:00:05 UTC`: one unambiguous form whatever the reader's zone. */
export function utcText(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A time as people of `zone` read it (`2030-03-01 17:00 Europe/Berlin`), or in UTC when no zone was chosen: the zone
 * of the workflow it belongs to (its leave dates were planned in it), named, so it is never taken for the reader's.
 */
export function zonedText(iso: string, zone: string | undefined): string {
  if (zone === undefined || zone === 'UTC') return utcText(iso);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${zone}`;
}

/** A time in the workflow's zone (UTC without one), the exact UTC instant on hover and for machines. */
export function timeOf(iso: string | undefined, zone?: string): SafeHtml {
  if (iso === undefined || iso === '') return html`—`;
  return html`<time datetime="${iso}" title="${utcText(iso)}">${zonedText(iso, zone)}</time>`;
}

/** The badge of what a batch is doing (see batch-activity.ts), coloured by that. */
export function activityBadge(activity: BatchActivity): SafeHtml {
  return stateBadge(activity.label);
}

export function percentDone(batch: BatchRecord): number {
  return batch.total === 0 ? 100 : Math.floor((100 * rowsWithOutcome(batch.counts)) / batch.total);
}

/** The progress bar is named by what it measures; the text beside it says the same for everyone. */
export function progressBar(batch: BatchRecord, label = 'Rows done'): SafeHtml {
  const done = rowsWithOutcome(batch.counts);
  const percent = percentDone(batch);
  return html`<div class="progress"><progress max="${batch.total}" value="${done}" aria-label="${label}">${percent}%</progress><span>${done} / ${batch.total} rows (${percent}%)</span></div>`;
}

export function outcomeCounts(batch: BatchRecord): SafeHtml {
  return html`<ul class="counts">${OUTCOMES.map(
    (outcome) => html`<li class="outcome-${outcome}"><span class="n">${batch.counts[outcome]}</span> ${outcome}</li>`,
  )}</ul>`;
}

/**
 * How far `iso` is from now, roughly, at the scale that matters (`in 6 d 23 h`, `3 min ago`, `in 7 weeks`, `in 3
 * years`): the date beside it says exactly when; nobody reads "in 1144 d 12 h".
 */
export function relativeTime(iso: string | undefined, now = Date.now()): string {
  if (iso === undefined || iso === '') return '';
  const ms = Date.parse(iso) - now;
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const days = Math.floor(minutes / 1440);
  const span =
    minutes < 1 ? 'less than a minute'
    : minutes < 60 ? `${minutes} min`
    : minutes < 24 * 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min`
    : days < 14 ? `${days} d ${Math.floor((minutes % 1440) / 60)} h`
    : days < 61 ? `${Math.floor(days / 7)} weeks`
    : days < 730 ? `${Math.floor(days / 30.44)} months`
    : `${Math.floor(days / 365.25)} years`;
  return ms >= 0 ? `in ${span}` : `${span} ago`;
}
