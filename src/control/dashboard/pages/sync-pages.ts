import { plural } from '../../../core/plural.js';
import type { SyncPlan } from '../../../sync/sync-plan.js';
import { describeLeaver } from '../../../workflow/format-offboarding-plan.js';
import { formatHold } from '../../../workflow/hold-duration.js';
import { cardTable } from '../card-table.js';
import { timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { stateBadge } from '../badges.js';
import { formErrorBlock } from '../notice.js';
import { planConfirmation } from './plan-confirmation.js';
import { callsToApply, type CallRate } from '../../../plan/calls-at-rate.js';
import { syncPlanCalls } from '../../../sync/sync-plan-calls.js';

export interface SyncFormOptions {
  csrfToken: string;
  /** The policies of the server's policy folder; undefined when it has none configured. */
  policies: string[] | undefined;
  values?: { policy: string; acceptMissing: boolean };
  error?: { message: string; problems?: string[] };
}

/** Choose the HR export and one of the server's lifecycle policies; nothing changes until the plan is confirmed. */
export function syncForm(options: SyncFormOptions): SafeHtml {
  const { policies } = options;
  const error = formErrorBlock(options.error);
  if (policies === undefined || policies.length === 0) {
    return html`<h1>Sync from HR</h1>${error}
<p>${policies === undefined ? 'This server has no folder of lifecycle policies (control.syncPolicyDir), so a sync cannot be started here.' : 'The policy folder of this server (control.syncPolicyDir) holds no lifecycle policy (a .json file).'} A policy decides the seats, the protections and the broken-export threshold, so it is chosen by whoever runs the server, never uploaded. Until then: <code>seatflow sync HR_EXPORT --policy FILE</code>.</p>`;
  }
  const values = options.values ?? { policy: policies[0] ?? '', acceptMissing: false };
  return html`<h1>Sync from HR</h1>
<p>Choose or drop tonight's HR export (CSV, JSON or JSON Lines, one row per employee) and the lifecycle policy. Seatflow compares it with the last export accepted for this target and policy and with the live organization, and shows the plan: joiners on their start date, movers on their effective date, leavers offboarded, each with the rule that causes it. Nothing changes until you confirm it on the next page.</p>
${error}
<form method="post" action="/syncs/new" enctype="multipart/form-data" class="plan-form">
  <input type="hidden" name="_csrf" value="${options.csrfToken}">
  <label for="export" class="dropzone" id="dropzone"><span>Drop the HR export here, or choose a file</span>
    <input id="export" name="export" type="file" accept=".csv,.tsv,.txt,.json,.jsonl,.ndjson" required>
  </label>
  <label for="policy">Lifecycle policy</label>
  <select id="policy" name="policy" required>${policies.map((name) => html`<option value="${name}"${name === values.policy ? html` selected` : ''}>${name}</option>`)}</select>
  <div class="check"><input id="acceptMissing" name="acceptMissing" type="checkbox" value="true"${values.acceptMissing ? html` checked` : ''}><label for="acceptMissing">The employees missing from this export really left (else an export that lacks the policy's share of them is taken as broken, and changes nothing)</label></div>
  <button type="submit">Preview the sync</button>
</form>`;
}

const when = (dueAt: number, plannedAt: number) => (dueAt <= plannedAt ? 'now' : timeOf(new Date(dueAt).toISOString()));

function verdictCell(item: { verdict: string; reason?: string | undefined; rule?: string | undefined }, what: string): SafeHtml {
  return item.verdict === 'change'
    ? html`${stateBadge('change')}<div class="small">${what}</div>`
    : html`${stateBadge(item.verdict)}<div class="small">${item.reason ?? ''}</div>${item.rule === undefined ? '' : html`<div class="muted small">${item.rule}</div>`}`;
}

function table(title: string, id: string, headers: readonly string[], rows: ReadonlyArray<readonly (SafeHtml | string)[]>, total: number): SafeHtml {
  if (total === 0) return html``;
  return html`<section aria-labelledby="${id}">
<h2 id="${id}">${title} (${total})</h2>
${cardTable({ caption: title, className: 'sync-plan', items: rows, columns: headers.map((label, index) => ({ label, names: index === 0, className: index === headers.length - 1 ? 'message' : undefined, cell: (row: readonly (SafeHtml | string)[]) => row[index] ?? '' })) })}
${total > rows.length ? html`<p class="muted">The first ${rows.length} of ${total} are shown; the plan report has every one.</p>` : ''}
</section>`;
}

/** The missing-share safety as this export measures against it: a broken export changes nothing unless confirmed. */
function missingCheck(plan: SyncPlan, acceptMissing: boolean): SafeHtml {
  const { missing } = plan;
  const absent = Math.max(missing.gone, missing.absentLeavers);
  const of = plan.previous === undefined ? `of the organization's ${missing.base} users` : `of the ${missing.base} employees of the last accepted export`;
  const measured = `${absent} ${of} missing (${(100 * missing.share).toFixed(1)}%; the policy's safety.maxMissingShare is ${(100 * missing.threshold).toFixed(0)}%)`;
  return html`<section aria-labelledby="missing-title" class="${missing.broken && !acceptMissing ? 'guardrail over' : 'guardrail ok'}">
<h2 id="missing-title">Broken-export check</h2>
<p>${missing.broken ? html`<strong>${acceptMissing ? 'Confirmed: they really left.' : 'A broken export:'}</strong> ` : ''}${measured}.</p>
</section>`;
}

/** The plan of a sync, person by person with what causes each change, and the confirmation that queues exactly it. */
export function syncPreviewPage(options: { previewId: string; name: string; plan: SyncPlan; acceptMissing: boolean; rate: CallRate; csrfToken: string }): SafeHtml {
  const { plan } = options;
  const shown = 500;
  const changing = <T extends { verdict: string }>(items: readonly T[]) => items.filter((item) => item.verdict === 'change').length;
  const leavers = plan.leavers?.leavers ?? [];
  const holdMs = plan.leavers?.options.holdMs ?? 0;
  const counts: Array<[number, string]> = [
    [changing(plan.joiners), 'joiners'],
    [changing(plan.movers), 'movers'],
    [leavers.filter((leaver) => leaver.verdict !== 'refused').length, 'leavers'],
    [plan.undos.length, 'offboardings undone'],
    [plan.transfers.length, 'transfer targets changed'],
  ];
  const changes = counts.reduce((sum, [n]) => sum + n, 0);
  const held = plan.missing.broken && !options.acceptMissing;
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/syncs/new">Sync from HR</a> › ${options.name}</nav>
<h1>Sync plan of ${options.name}</h1>
<ul class="counts">${counts.map(([n, label]) => html`<li><span class="n">${n}</span> ${label}</li>`)}</ul>
<p class="muted">${plan.export.employees} employees · policy ${plan.policy.path.split('/').at(-1) ?? plan.policy.path} (sha256 ${plan.policy.sha256.slice(0, 12)}) · ${plan.previous === undefined ? 'compared with nothing accepted yet for this target and policy (a first sync: no movers, no one gone)' : `compared with the export accepted ${plan.previous.acceptedAt}`} · ${plan.notInExport.length} in the organization and not in the export · ${plan.protected.length} protected · ${plan.apiCalls} API calls spent on the plan</p>
${table(
  'Joiners: on the start date added (or a rehire reactivated), then given the seat',
  'joiners-title',
  ['Joiner', 'When', 'Seat and rule', 'Verdict', 'Why'],
  plan.joiners.slice(0, shown).map((joiner) => [html`${joiner.employee.email}`, html`${joiner.how} ${when(joiner.dueAt, plan.plannedAt)}`, html`${joiner.seat.seat}<div class="muted small">${joiner.seat.rule}</div>`, html`${verdictCell(joiner, joiner.cost)}`, html`${joiner.cause}`]),
  plan.joiners.length,
)}
${table(
  'Movers: on the effective date given the seat of their new department, title or location',
  'movers-title',
  ['Mover', 'When', 'Seat and rule', 'Verdict', 'Why'],
  plan.movers.slice(0, shown).map((mover) => [html`${mover.employee.email}`, html`${mover.action} ${when(mover.dueAt, plan.plannedAt)}`, html`${mover.user.seat ?? '?'} → ${mover.seat.seat}<div class="muted small">${mover.seat.rule}</div>`, html`${verdictCell(mover, `${mover.action} to ${mover.seat.seat}`)}`, html`${mover.cause}`]),
  plan.movers.length,
)}
${table(
  `Leavers: deactivated on the date, removed after a ${formatHold(holdMs)} hold with a transfer to their manager`,
  'leavers-title',
  ['Leaver', 'Plan', 'Why'],
  leavers.slice(0, shown).map((leaver) => [html`${leaver.email}`, html`${describeLeaver(leaver, holdMs)}${leaver.notes.length === 0 ? '' : html`<ul class="notes">${leaver.notes.map((note) => html`<li>${note}</li>`)}</ul>`}`, html`${plan.leaverCauses[leaver.row]?.cause ?? ''}`]),
  leavers.length,
)}
${table('Offboardings undone: employed again while their offboarding is open', 'undos-title', ['Person', 'Offboarding', 'Why'], plan.undos.slice(0, shown).map((undo) => [html`${undo.employee.email}`, html`${undo.workflowId}`, html`${undo.cause}`]), plan.undos.length)}
${table('Transfer targets: an open offboarding now transfers to the new manager', 'transfers-title', ['Person', 'Offboarding', 'Transfer'], plan.transfers.slice(0, shown).map((transfer) => [html`${transfer.employee.email}`, html`${transfer.workflowId}`, html`${transfer.from ?? '(none)'} → ${transfer.to}`]), plan.transfers.length)}
${missingCheck(plan, options.acceptMissing)}
${planConfirmation({
  guardrails: plan.guardrails,
  calls: callsToApply(syncPlanCalls(plan), options.rate),
  action: `/syncs/new/${options.previewId}/submit`,
  csrfToken: options.csrfToken,
  confirms: `queue its ${plural(changes, 'change')} and accept the export`,
  submitLabel: 'Start the sync',
  startOver: '/syncs/new',
  ...(held
    ? { warning: html`<p>This export is taken as broken: confirming changes nothing and does not accept it. If the missing employees really left, start over and tick "really left".</p>` }
    : {}),
})}`;
}
