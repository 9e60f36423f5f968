import { describeUnrecognized, offersDeactivation, regionName, type ServiceRegion, type User } from '../contract/index.js';
import type { ActionOf } from '../manifest/action.js';
import { externalSourceOf, type ExternalSource } from './external-sources.js';
import { RULES, type Classification, type ResolvedTarget } from './planned-row.js';

/** What the plan knows about the service it plans for, beyond what the rows' users say. */
export interface ServiceFacts {
  /** The target's region; deactivate and reactivate do not exist on Smartsheet Gov. */
  region?: ServiceRegion | undefined;
  /** Users an identity provider or directory integration manages (config `externalSources`). */
  externalSources?: readonly ExternalSource[] | undefined;
}

/**
 * The user fields each action's classification reads: an unknown value in one of them leaves the row unjudgeable.
 * Seat rows read the seat of their plan, which seatUnknownRefusal checks.
 */
const FIELDS_READ: Partial<Record<string, readonly string[]>> = {
  deactivate: ['status'],
  reactivate: ['status'],
  remove: ['status'],
  downgrade: ['status'],
};

/** A seat row whose plan seat the service reported with a seat type seatflow does not know. */
export function seatUnknownRefusal(seated: Pick<User, 'unrecognized'>, target: ResolvedTarget): Classification | undefined {
  const unknown = (seated.unrecognized ?? []).filter((item) => item.field === 'seatType');
  if (unknown.length === 0) return undefined;
  return {
    verdict: 'refused',
    rule: RULES.unknownValue,
    reason: `the service reports ${describeUnrecognized(unknown)} for this user's seat in the plan, which seatflow does not know; check the user in Admin Center before acting`,
    target,
  };
}

/**
 * Refusals that come before a row's own rules (docs/service.md): a value the service sent that seatflow does not know
 * (only this user's rows that read it), deactivate and reactivate on Smartsheet Gov, and users an external source
 * manages. Undefined when none applies.
 */
export function refuseBeforeRules(action: { action: string }, user: User, target: ResolvedTarget, service: ServiceFacts): Classification | undefined {
  const unknown = (user.unrecognized ?? []).filter((item) => FIELDS_READ[action.action]?.includes(item.field) === true);
  if (unknown.length > 0) {
    return {
      verdict: 'refused',
      rule: RULES.unknownValue,
      reason: `the service reports ${describeUnrecognized(unknown)} for this user, which seatflow does not know; check the user in Admin Center before acting`,
      target,
    };
  }
  const lifecycle = action.action === 'deactivate' || action.action === 'reactivate';
  if (lifecycle && !offersDeactivation(service.region)) {
    return {
      verdict: 'refused',
      rule: RULES.unavailableOnGov,
      reason: `${regionName('GOV')} does not offer ${action.action} user; remove the user instead, or do it in Admin Center`,
      target,
    };
  }
  if (lifecycle || action.action === 'remove') {
    const source = externalSourceOf(user.email, service.externalSources ?? []);
    if (source !== undefined) {
      return {
        verdict: 'refused',
        rule: RULES.externallyManaged,
        reason: `${user.email} is managed by ${source.name} (config externalSources); the service refuses to ${action.action} it through the API: do it in ${source.name}`,
        target,
      };
    }
  }
  return undefined;
}

/**
 * The seat an add costs (docs/service.md#add-user): on a user-subscription plan a System Admin gets a paid Member
 * seat, anyone else a Provisional Member seat, free until the end of the review period and then a free seat unless a
 * System Admin upgrades it (or the plan's Provisional Member setting upgrades it automatically).
 */
export function seatCostOfAdd(action: Pick<ActionOf<'add'>, 'admin'>): string {
  return action.admin === true
    ? 'costs a paid MEMBER seat (a System Admin is added as a Member)'
    : 'adds a PROVISIONAL_MEMBER seat: free until the review period ends, then a free seat unless upgraded to a paid Member';
}
