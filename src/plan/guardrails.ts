import { UsageError } from '../core/seatflow-error.js';
import { countsOf } from './plan-rows.js';
import type { BatchPlan } from './planned-row.js';
import { plural } from '../core/plural.js';

export interface GuardrailLimits {
  /** Destructive rows above this count need confirmation (config guardrails.destructiveMaxCount). */
  destructiveMaxCount: number;
  /** ...or above this share of the organization's users (config guardrails.destructiveMaxShare). */
  destructiveMaxShare: number;
}

export interface GuardrailCheck {
  /** Rows that will change something by taking it away (deactivate, remove, downgrade, delete-*…). */
  destructiveCount: number;
  organizationUsers: number | undefined;
  /** Why confirmation is needed; empty when it is not. */
  reasons: string[];
  needsConfirmation: boolean;
}

/** Counts the destructive changes of a plan against the configured limits. Pure; `seatflow run` reuses it. */
export function checkGuardrails(plan: Pick<BatchPlan, 'rows' | 'organizationUsers'>, limits: GuardrailLimits): GuardrailCheck {
  const destructiveCount = countsOf(plan.rows).destructiveChanges();
  const reasons: string[] = [];
  if (destructiveCount > limits.destructiveMaxCount) {
    reasons.push(`${destructiveCount} destructive changes, more than guardrails.destructiveMaxCount (${limits.destructiveMaxCount})`);
  }
  const users = plan.organizationUsers;
  if (users !== undefined && users > 0 && destructiveCount / users > limits.destructiveMaxShare) {
    const share = (100 * destructiveCount) / users;
    reasons.push(`${plural(destructiveCount, 'destructive change')} ${destructiveCount === 1 ? 'is' : 'are'} ${share.toFixed(1)}% of the organization's ${plural(users, 'user')}, more than guardrails.destructiveMaxShare (${(100 * limits.destructiveMaxShare).toFixed(1)}%)`);
  }
  return { destructiveCount, organizationUsers: users, reasons, needsConfirmation: reasons.length > 0 };
}

export interface ConfirmOptions {
  /** --yes was given. */
  yes: boolean;
  /** Whether a person can answer a prompt (stdin and stderr are terminals). */
  interactive: boolean;
  /** Asks the question; resolves with the typed answer. Only called when interactive. */
  ask?: (question: string) => Promise<string>;
}

/**
 * Passes when no confirmation is needed, when --yes was given, or when the person typed "yes" at the prompt.
 * Otherwise throws a UsageError (exit 2) saying which limit was crossed and how to proceed.
 */
export async function confirmGuardrails(check: GuardrailCheck, options: ConfirmOptions): Promise<void> {
  if (!check.needsConfirmation || options.yes) return;
  const why = check.reasons.join('; ');
  if (!options.interactive || options.ask === undefined) {
    throw new UsageError(`refused: ${why}`, 'Check the plan, then run again with --yes to confirm.');
  }
  const answer = await options.ask(`${why}.\nType "yes" to go on: `);
  if (answer.trim().toLowerCase() !== 'yes') throw new UsageError('not confirmed: nothing was done');
}
