import type { AuditEntry } from '../../../governance/audit/audit-entry.js';
import type { AuditVerification } from '../../../governance/audit/verify-audit.js';
import { timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';

export interface AuditPageView {
  entries: readonly { id: string; entry: AuditEntry }[];
  /** The stream id to read older entries from, when there are more. */
  olderFrom?: string;
  head: { seq: number; hash: string };
  /** Present when the person asked to verify the chain. */
  verification?: AuditVerification;
}

/** The facts of an entry in one short line (the export has everything). */
function factsOf(entry: AuditEntry): string {
  const data = entry.data as Record<string, unknown>;
  // Hashes are shown by their first 16 digits (the export and the approval page have them whole).
  const shown = (key: string, value: unknown) => (typeof value === 'object' ? JSON.stringify(value) : /hash$/i.test(key) ? `${String(value).slice(0, 16)}…` : String(value));
  const pick = (...keys: string[]) => keys.filter((key) => data[key] !== undefined && data[key] !== null).map((key) => `${key}: ${shown(key, data[key])}`);
  switch (entry.event) {
    case 'row.applied':
      return pick('row', 'action', 'email', 'subject', 'outcome', 'status', 'errorCode', 'message').join(' · ');
    case 'config.loaded':
      return `sha256 ${String(data.sha256 ?? '').slice(0, 16)}…`;
    default:
      return pick('kind', 'subjectName', 'approval', 'requestedBy', 'resultId', 'planHash', 'policyPath', 'cron').join(' · ');
  }
}

function verificationNote(result: AuditVerification): SafeHtml {
  if (result.ok) return html`<p class="ok-note" role="status"><strong>Intact:</strong> ${result.entries} entries, each chained to the one before${result.last === undefined ? '' : html`; last entry ${result.last.seq}, hash <span class="mono">${result.last.hash}</span>`}.</p>`;
  const broken = result.broken!;
  return html`<p class="error" role="alert"><strong>Broken at entry ${broken.seq}</strong> (${broken.where}): ${broken.problem}. ${result.entries} entries before it are intact.</p>`;
}

/** The audit trail, newest first, with the chain's check on request and the exports. */
export function auditPage(view: AuditPageView): SafeHtml {
  return html`<h1>Audit trail</h1>
<p>Every change request, approval and rejection, each row the service was asked to change (with its answer), every undo, configuration change and schedule change, appended to a hash chain: each entry carries the SHA-256 of the one before, so a changed, removed or inserted entry is found by a check. Entries hold e-mails and the change, never a token or secret.</p>
<div class="heading">
<p class="muted">${view.head.seq} entries · head <span class="mono">${view.head.hash.slice(0, 16)}…</span></p>
<form method="get" action="/audit" class="inline-form"><input type="hidden" name="verify" value="1"><button type="submit">Verify the chain</button></form>
</div>
${view.verification === undefined ? '' : verificationNote(view.verification)}
<form method="get" action="/audit/export" class="export-form" aria-label="Export the audit trail">
  <div class="field"><label for="from">From (UTC, inclusive)</label><input id="from" name="from" type="date"></div>
  <div class="field"><label for="to">To (UTC, exclusive)</label><input id="to" name="to" type="date"></div>
  <div class="field"><label for="format">Format</label><select id="format" name="format"><option value="jsonl">JSON Lines (verifiable)</option><option value="csv">CSV</option></select></div>
  <button type="submit">Export</button>
</form>
${view.entries.length === 0
  ? html`<p class="empty">The audit trail is empty.</p>`
  : html`<div class="table-scroll" tabindex="0" role="region" aria-label="Audit entries"><table class="audit">
<caption class="visually-hidden">Audit entries, newest first</caption>
<thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">Event</th><th scope="col">Who</th><th scope="col">About</th><th scope="col">Reason</th><th scope="col">Facts</th></tr></thead>
<tbody>${view.entries.map(
      ({ entry }) => html`<tr><td>${entry.seq}</td><td>${timeOf(entry.at)}</td><td><span class="badge event">${entry.event}</span></td><td>${entry.actor}</td><td class="mono">${entry.subject}</td><td>${entry.reason ?? ''}</td><td class="message">${factsOf(entry)}</td></tr>`,
    )}</tbody></table></div>`}
${view.olderFrom === undefined ? '' : html`<p><a href="/audit?before=${encodeURIComponent(view.olderFrom)}">Older entries</a></p>`}`;
}
