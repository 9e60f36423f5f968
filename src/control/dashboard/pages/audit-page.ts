import { AUDIT_EVENTS, type AuditEntry } from '../../../governance/audit/audit-entry.js';
import type { AuditVerification } from '../../../governance/audit/verify-audit.js';
import { stepBatchOf } from '../../../workflow/retry-step-batch.js';
import { cardTable } from '../card-table.js';
import { timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';

/** What the audit page is filtered by (each optional; all given must match). */
export interface AuditFilter {
  actor?: string | undefined;
  event?: string | undefined;
  /** A batch, offboarding, workflow, change request or schedule id: entries about it. */
  subject?: string | undefined;
  /** An e-mail: entries whose facts name it (a row, a leaver, a person undone). */
  user?: string | undefined;
}

export interface AuditPageView {
  entries: readonly { id: string; entry: AuditEntry }[];
  filter: AuditFilter;
  /** The stream id to read older entries from, when there are more. */
  olderFrom?: string;
  /** Entries read to find those shown (a filter reads further back than one page). */
  scanned: number;
  head: { seq: number; hash: string };
  /** Present when the person asked to verify the chain. */
  verification?: AuditVerification;
}

/** Where an id of the trail is shown: a batch, an offboarding, a change request or a schedule of this dashboard. */
export function linkOf(id: string, event: string): string | undefined {
  if (event.startsWith('change.')) return /^[bos][0-9a-f]{12}$/.test(id) ? `/approvals/${id}` : undefined;
  if (event.startsWith('schedule.')) return '/schedules';
  if (/^b[0-9a-f]{12}$/.test(id) || stepBatchOf(id) !== undefined) return `/batches/${id}`;
  if (/^o[0-9a-f]{12}$/.test(id)) return `/offboardings/${id}`;
  return undefined;
}

function filterLink(filter: AuditFilter, label: string, text: string): SafeHtml {
  const params = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return html`<a href="/audit?${params.toString()}" aria-label="${label}">${text}</a>`;
}

/** The facts of an entry in one short line (the export has everything), its ids and e-mails as links. */
function factsOf(entry: AuditEntry): SafeHtml {
  const data = entry.data as Record<string, unknown>;
  // Hashes are shown by their first 16 digits (the export and the approval page have them whole).
  const shown = (key: string, value: unknown): SafeHtml | string => {
    if (typeof value === 'object') return JSON.stringify(value);
    const text = String(value);
    if (/hash$/i.test(key)) return `${text.slice(0, 16)}…`;
    if (key === 'email') return filterLink({ user: text }, `Entries about ${text}`, text);
    if (key === 'resultId' || key === 'approval') {
      const href = key === 'resultId' ? linkOf(text, 'batch') : /^[bos][0-9a-f]{12}$/.test(text) ? `/approvals/${text}` : undefined;
      return href === undefined ? text : html`<a href="${href}">${text}</a>`;
    }
    return text;
  };
  const pick = (...keys: string[]) =>
    keys.filter((key) => data[key] !== undefined && data[key] !== null).map((key, index) => html`${index === 0 ? '' : ' · '}${key}: ${shown(key, data[key])}`);
  switch (entry.event) {
    case 'row.applied':
      return html`${pick('row', 'action', 'email', 'subject', 'outcome', 'status', 'errorCode', 'message')}`;
    case 'config.loaded':
      return html`sha256 ${String(data.sha256 ?? '').slice(0, 16)}…`;
    case 'offboarding.undone':
    case 'workflow.undone': {
      const people = (data.leavers ?? data.persons) as Array<{ email: string; result: string }> | undefined;
      return html`${(people ?? []).map((person, index) => html`${index === 0 ? '' : ' · '}${filterLink({ user: person.email }, `Entries about ${person.email}`, person.email)}: ${person.result}`)}`;
    }
    default:
      return html`${pick('via', 'kind', 'subjectName', 'approval', 'requestedBy', 'resultId', 'cancelled', 'running', 'requeued', 'jobId', 'planHash', 'policyPath', 'cron')}`;
  }
}

function verificationNote(result: AuditVerification): SafeHtml {
  const pending = (result.pending ?? 0) === 0 ? '' : html` ${result.pending} row(s) that ended are not in it yet: a running worker appends them within a minute.`;
  if (result.ok) return html`<p class="ok-note" role="status"><strong>Intact:</strong> ${result.entries} entries, each chained to the one before${result.last === undefined ? '' : html`; last entry ${result.last.seq}, hash <span class="mono">${result.last.hash}</span>`}.${pending}</p>`;
  const broken = result.broken!;
  return html`<p class="error" role="alert"><strong>Broken at entry ${broken.seq}</strong> (${broken.where}): ${broken.problem}. ${result.entries} entries before it are intact.</p>`;
}

function filterForm(filter: AuditFilter): SafeHtml {
  return html`<form method="get" action="/audit" class="filter-form" aria-label="Filter the audit trail">
  <div class="field"><label for="f-actor">Who</label><input id="f-actor" name="actor" type="text" value="${filter.actor ?? ''}" placeholder="alice" autocomplete="off"></div>
  <div class="field"><label for="f-event">What</label><select id="f-event" name="event"><option value="">(every event)</option>${AUDIT_EVENTS.map((event) => html`<option value="${event}"${event === filter.event ? html` selected` : ''}>${event}</option>`)}</select></div>
  <div class="field"><label for="f-subject">Batch, offboarding or request id</label><input id="f-subject" name="subject" type="text" value="${filter.subject ?? ''}" placeholder="b1a2b3c4d5e6f" autocomplete="off"></div>
  <div class="field"><label for="f-user">User (e-mail)</label><input id="f-user" name="user" type="text" value="${filter.user ?? ''}" placeholder="jordan.lee@example.com" autocomplete="off"></div>
  <button type="submit">Filter</button>${Object.values(filter).some((value) => value !== undefined) ? html` <a class="button secondary" href="/audit">Show all</a>` : ''}
</form>`;
}

/** The audit trail, newest first, filtered by who, what, which id and which user, with the chain's check and exports. */
export function auditPage(view: AuditPageView): SafeHtml {
  const filtered = Object.values(view.filter).some((value) => value !== undefined);
  return html`<h1>Audit trail</h1>
<p>Every change request, approval and rejection, each row the service was asked to change (with its answer), every undo, cancel, retry, run now, configuration change and schedule change, appended to a hash chain: each entry carries the SHA-256 of the one before, so a changed, removed or inserted entry is found by a check. Entries hold e-mails and the change, never a token or secret.</p>
<div class="heading">
<p class="muted">${view.head.seq} entries · head <span class="mono">${view.head.hash.slice(0, 16)}…</span></p>
<form method="get" action="/audit" class="inline-form"><input type="hidden" name="verify" value="1"><button type="submit">Verify the chain</button></form>
</div>
${view.verification === undefined ? '' : verificationNote(view.verification)}
${filterForm(view.filter)}
${view.entries.length === 0
  ? html`<p class="empty">${filtered ? `No entry matches among the ${view.scanned} most recent.` : 'The audit trail is empty.'}</p>`
  : cardTable({
      caption: 'Audit entries, newest first',
      className: 'audit',
      items: view.entries,
      columns: [
        { label: '#', cell: ({ entry }) => entry.seq },
        { label: 'When', cell: ({ entry }) => timeOf(entry.at) },
        { label: 'Event', cell: ({ entry }) => filterLink({ ...view.filter, event: entry.event }, `Only ${entry.event} entries`, entry.event) },
        { label: 'Who', names: true, cell: ({ entry }) => filterLink({ ...view.filter, actor: entry.actor }, `Entries by ${entry.actor}`, entry.actor) },
        {
          label: 'About',
          className: 'mono',
          cell: ({ entry }) => {
            const href = linkOf(entry.subject, entry.event);
            return html`${href === undefined ? entry.subject : html`<a href="${href}">${entry.subject}</a>`} <span class="small">${filterLink({ subject: entry.subject }, `Every entry about ${entry.subject}`, '(all)')}</span>`;
          },
        },
        { label: 'Reason', cell: ({ entry }) => entry.reason ?? '' },
        { label: 'Facts', className: 'message', cell: ({ entry }) => factsOf(entry) },
      ],
    })}
${view.olderFrom === undefined ? '' : html`<p><a href="/audit?${new URLSearchParams({ ...Object.fromEntries(Object.entries(view.filter).filter((entry): entry is [string, string] => entry[1] !== undefined)), before: view.olderFrom }).toString()}">Older entries</a></p>`}
<h2>Export</h2>
<form method="get" action="/audit/export" class="export-form" aria-label="Export the audit trail">
  <div class="field"><label for="from">From (UTC, inclusive)</label><input id="from" name="from" type="date"></div>
  <div class="field"><label for="to">To (UTC, exclusive)</label><input id="to" name="to" type="date"></div>
  <div class="field"><label for="format">Format</label><select id="format" name="format"><option value="jsonl">JSON Lines (verifiable)</option><option value="csv">CSV</option></select></div>
  <button type="submit">Export</button>
</form>`;
}
