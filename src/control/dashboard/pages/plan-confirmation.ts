import { plural } from '../../../core/plural.js';
import type { GuardrailCheck } from '../../../plan/guardrails.js';
import { callsToApplyLine, type CallsToApply } from '../../../plan/calls-at-rate.js';
import { html, type SafeHtml } from '../html.js';

export interface PlanConfirmation {
  guardrails: GuardrailCheck;
  /** The calls confirming it makes and how long they take at the configured rate: the CLI's plan line, word for word. */
  calls: CallsToApply;
  /** Where the confirmed form posts. */
  action: string;
  csrfToken: string;
  /** What the person confirms: "run its 3 changes", "offboard its 2 leavers". */
  confirms: string;
  submitLabel: string;
  /** The page that starts over with another file. */
  startOver: string;
  /** Said above the confirmation (what confirming will and will not do). */
  warning?: SafeHtml;
}

/**
 * The end of every plan page: the calls applying it makes, what the guardrails say, then the form that confirms the
 * plan, with a ticket or reason for the audit trail. One form for every kind of plan, so all ask the same and post the
 * same fields.
 */
export function planConfirmation(options: PlanConfirmation): SafeHtml {
  const { guardrails } = options;
  return html`<p class="calls">${callsToApplyLine(options.calls)}</p>
<section aria-labelledby="guardrails-title" class="${guardrails.needsConfirmation ? 'guardrail over' : 'guardrail ok'}">
<h2 id="guardrails-title">Guardrails</h2>
${guardrails.needsConfirmation
  ? html`<p><strong>Confirmation needed:</strong></p><ul>${guardrails.reasons.map((reason) => html`<li>${reason}</li>`)}</ul>`
  : html`<p>Within the limits: ${plural(guardrails.destructiveCount, 'destructive change')}.</p>`}
</section>
${options.warning === undefined ? '' : html`<div class="error" role="alert">${options.warning}</div>`}
<form method="post" action="${options.action}" class="submit-form">
  <input type="hidden" name="_csrf" value="${options.csrfToken}">
  <div class="check"><input id="confirm" name="confirm" type="checkbox" value="true" required><label for="confirm">I checked this plan: ${options.confirms}${guardrails.needsConfirmation ? ', over the guardrails' : ''}</label></div>
  <div class="field"><label for="reason">Ticket or reason <span class="muted">(optional, kept in the audit trail)</span></label><input id="reason" name="reason" type="text" maxlength="500"></div>
  <button type="submit">${options.submitLabel}</button>
  <a class="button secondary" href="${options.startOver}">Start over</a>
</form>`;
}
