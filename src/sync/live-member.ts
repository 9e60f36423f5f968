import type { UserStatus } from '../contract/index.js';
import type { PolicySeat } from '../reconcile/policy.js';

/** A user of the live organization, as much as a sync needs (100,000 of them are looked up while the plan is made). */
export interface LiveMember {
  id: number;
  email: string;
  status?: UserStatus | undefined;
  admin?: boolean | undefined;
  /** The seat in the policy's plan, as a policy names seats (a deactivated user holds the free seat). */
  seat?: PolicySeat | undefined;
}
