import { formatHold } from '../../../workflow/hold-duration.js';
import type { LeaverVerdict, OffboardingPlan, PlannedLeaver } from '../../../workflow/plan-offboarding.js';
import { leaversPlanTable, type LeaverPlanView } from './plan-tables.js';
import { html, type SafeHtml } from '../html.js';
import { formErrorBlock } from '../notice.js';
import { planConfirmation } from './plan-confirmation.js';
import { plural } from '../../../core/plural.js';
import { callsToApply, type CallRate } from '../../../plan/calls-at-rate.js';
import { leaverCalls } from '../../../workflow/leaver-calls.js';

/** What the form was sent with, to show it again after a refusal. */
export interface OffboardFormValues {
  hold: string;
  transferTo: string;
  removeFromSharing: boolean;
  tz: string;
  /** Which column holds the leave date, and which the transfer target, when the file names them otherwise. */
  leaveDateColumn: string;
  transferColumn: string;
  /** Columns that mean nothing here, comma-separated. */
  ignoreColumns: string;
}

export interface OffboardFormOptions {
  csrfToken: string;
  /** offboarding.defaultHoldDays, as the hold field's default. */
  defaultHold: string;
  values?: OffboardFormValues;
  error?: { message: string; problems?: string[] };
}

/** Choose or drop a leavers file and `seatflow offboard`'s options; nothing changes until the plan is confirmed. */
export function offboardForm(options: OffboardFormOptions): SafeHtml {
  const values = options.values ?? { hold: options.defaultHold, transferTo: '', removeFromSharing: false, tz: '', leaveDateColumn: '', transferColumn: '', ignoreColumns: '' };
  return html`<h1>Offboard leavers</h1>
<p>Choose or drop the leavers file from HR (CSV, JSON or JSON Lines, with an e-mail column and optionally a leave date and a transfer target). Seatflow checks every leaver against the live state of the target and shows the plan: deactivation on the leave date, then removal with the transfer of their sheets at the end of the hold. Nothing changes until you confirm it on the next page.</p>
${formErrorBlock(options.error)}
<form method="post" action="/offboardings/new" enctype="multipart/form-data" class="plan-form">
  <input type="hidden" name="_csrf" value="${options.csrfToken}">
  <label for="leavers" class="dropzone" id="dropzone"><span>Drop a leavers file here, or choose a file</span>
    <input id="leavers" name="leavers" type="file" accept=".csv,.tsv,.txt,.json,.jsonl,.ndjson" required>
  </label>
  <label for="hold">Hold between deactivation and removal</label>
  <input id="hold" name="hold" type="text" value="${values.hold}" aria-describedby="hold-help" required>
  <p id="hold-help" class="muted small">Like 7d, 36h or 90m. Undo is possible until the removal.</p>
  <label for="transferTo">Transfer target for leavers whose row names none (optional)</label>
  <input id="transferTo" name="transferTo" type="email" value="${values.transferTo}" autocomplete="off">
  <label for="tz">Time zone of leave dates without one (optional)</label>
  <input id="tz" name="tz" type="text" value="${values.tz}" placeholder="Europe/Berlin" autocomplete="off">
  <div class="check"><input id="removeFromSharing" name="removeFromSharing" type="checkbox" value="true"${values.removeFromSharing ? html` checked` : ''}><label for="removeFromSharing">Also remove the leavers from sharing when they are removed</label></div>
  <details${values.leaveDateColumn !== '' || values.transferColumn !== '' || values.ignoreColumns !== '' ? html` open` : ''}><summary>Columns the file names its own way (optional)</summary>
  <p class="muted small">A file whose leave date or transfer target sits in a column seatflow does not know is refused, never guessed: say here which column means what, or which columns mean nothing.</p>
  <label for="leaveDateColumn">Column of the leave date (the last day)</label>
  <input id="leaveDateColumn" name="leaveDateColumn" type="text" value="${values.leaveDateColumn}" placeholder="Leaving Date" autocomplete="off">
  <label for="transferColumn">Column of the transfer target</label>
  <input id="transferColumn" name="transferColumn" type="text" value="${values.transferColumn}" placeholder="Line Manager Email" autocomplete="off">
  <label for="ignoreColumns">Columns that mean nothing here, comma-separated</label>
  <input id="ignoreColumns" name="ignoreColumns" type="text" value="${values.ignoreColumns}" placeholder="Original Hire Date, Personal Email" autocomplete="off">
  </details>
  <button type="submit">Preview the offboarding</button>
</form>`;
}

const VERDICTS: ReadonlyArray<{ verdict: LeaverVerdict; label: string }> = [
  { verdict: 'deactivate-now', label: 'deactivate now' },
  { verdict: 'deactivate-on-date', label: 'on their leave date' },
  { verdict: 'already-deactivated', label: 'already deactivated' },
  { verdict: 'refused', label: 'refused' },
];

/** The plan of an offboarding, leaver by leaver, with the confirmation that submits exactly this plan. */
/** A planned leaver in the words the plan page and the approval page share. */
function leaverPlanViewOf(leaver: PlannedLeaver): LeaverPlanView {
  return {
    row: leaver.row,
    line: leaver.line,
    email: leaver.email,
    verdict: leaver.verdict,
    ...(leaver.verdict === 'deactivate-on-date' ? { leaveAt: leaver.leaveAt } : {}),
    transferTo: leaver.transferTo?.email,
    reason: leaver.reason,
    rule: leaver.rule,
    notes: leaver.notes,
  };
}

export function offboardPreviewPage(options: { previewId: string; name: string; plan: OffboardingPlan; rate: CallRate; csrfToken: string }): SafeHtml {
  const { plan } = options;
  const count = (verdict: LeaverVerdict) => plan.leavers.filter((leaver) => leaver.verdict === verdict).length;
  const acting = plan.leavers.length - count('refused');
  const { guardrails } = plan;
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/offboardings/new">Offboard leavers</a> › ${options.name}</nav>
<h1>Offboarding plan of ${options.name}</h1>
<ul class="counts verdicts">${VERDICTS.map(({ verdict, label }) => html`<li><span class="n">${count(verdict)}</span> ${label}</li>`)}</ul>
<p class="muted">${plan.leavers.length} leavers · hold ${formatHold(plan.options.holdMs)}${plan.options.transferTo === undefined ? '' : ` · transfer target when a row names none: ${plan.options.transferTo}`}${plan.options.removeFromSharing ? ' · removed from sharing' : ''} · times in ${plan.options.timeZone ?? 'UTC'} · ${plan.apiCalls} API calls spent on the pre-flight</p>
<section aria-labelledby="leavers-title">
<h2 id="leavers-title">Leavers</h2>
${leaversPlanTable(plan.leavers.slice(0, 1000).map(leaverPlanViewOf), { holdMs: plan.options.holdMs, zone: plan.options.timeZone, caption: 'Leavers of the plan, in file order' })}
${plan.leavers.length > 1000 ? html`<p class="muted">The first 1000 of ${plan.leavers.length} leavers are shown.</p>` : ''}
</section>
${planConfirmation({ guardrails, calls: callsToApply(leaverCalls(plan.leavers), options.rate), action: `/offboardings/new/${options.previewId}/submit`, csrfToken: options.csrfToken, confirms: `offboard its ${plural(acting, 'leaver')}`, submitLabel: 'Start the offboarding', startOver: '/offboardings/new' })}`;
}
