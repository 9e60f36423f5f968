import type { LifecyclePolicy } from './lifecycle-policy.js';

/** Who a lifecycle policy never touches, whatever the export says (docs/sync.md#the-lifecycle-policy). */
export interface ProtectionContext {
  protect: LifecyclePolicy['protect'];
  /** config guardrails.protectedAccounts: e-mails or ids. */
  protectedAccounts: readonly string[];
  /** The account running seatflow. */
  callerId?: number | undefined;
}

/**
 * Why a person is protected from a lifecycle policy's changes (the account running seatflow, a protected account, the
 * policy's `protect` e-mails, domains or admins), or undefined when they are not. `email` is lower case.
 */
export function protectionOf(context: ProtectionContext): (email: string, user: { id: number; admin?: boolean | undefined } | undefined) => string | undefined {
  const guarded = new Set(context.protectedAccounts.map((entry) => entry.trim().toLowerCase()));
  const { protect } = context;
  return (email, user) => {
    if (user?.id === context.callerId) return 'the account running seatflow';
    if (guarded.has(email) || (user !== undefined && guarded.has(String(user.id)))) return 'protected account (guardrails.protectedAccounts)';
    if (protect.emails.includes(email)) return 'listed in the policy\'s protect.emails';
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const hit = protect.domains.find((entry) => domain === entry || domain.endsWith(`.${entry}`));
    if (hit !== undefined) return `domain ${hit} (the policy's protect.domains)`;
    if (protect.admins && user?.admin === true) return 'System Admin (the policy\'s protect.admins)';
    return undefined;
  };
}
