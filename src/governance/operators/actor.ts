import { OPERATOR_ROLES, type OperatorRole } from '../../core/governance-config.js';
import { GovernanceRefusal } from '../governance-refusal.js';

/** Who does something, as the audit trail and the approvals name them. */
export interface Actor {
  name: string;
  role: OperatorRole;
  /** How they were identified: their own token, a dashboard session, the shared control token, the command line, a schedule. */
  via: 'token' | 'session' | 'control-token' | 'cli' | 'schedule';
}

/** What each step needs. A role includes every role before it in OPERATOR_ROLES. */
export const NEEDED_ROLE = {
  read: 'viewer',
  request: 'operator',
  approve: 'approver',
} as const satisfies Record<string, OperatorRole>;

export function hasRole(actor: Pick<Actor, 'role'>, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(actor.role) >= OPERATOR_ROLES.indexOf(needed);
}

/** Refuses (403 / exit 2) unless the actor's role covers `needed`; `what` says what was refused. */
export function requireRole(actor: Actor, needed: OperatorRole, what: string): void {
  if (hasRole(actor, needed)) return;
  throw new GovernanceRefusal('forbidden', `${actor.name} (${actor.role}) may not ${what}: that needs the ${needed} role`, 'Roles are set per operator in governance.operators of the config file (docs/governance.md#operators-and-roles).');
}

/** Two names are one person, whatever their case. */
export function samePerson(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
