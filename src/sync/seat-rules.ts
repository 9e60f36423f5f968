import type { Employee } from './employee.js';
import type { LifecyclePolicy, PolicySeatName, SeatRule } from './lifecycle-policy.js';

/** The seat the policy gives an employee, and the rule that gave it (`seats.default` when none matched). */
export interface SeatChoice {
  seat: PolicySeatName;
  rule: string;
}

type Attributes = Pick<Employee, 'department' | 'title' | 'location'>;

/** The first seat rule whose conditions all hold (texts compared whole, in any case; `titleContains` inside the title). */
export function seatFor(employee: Attributes, seats: LifecyclePolicy['seats']): SeatChoice {
  for (const [index, rule] of seats.rules.entries()) {
    if (matches(rule, employee)) return { seat: rule.then.seat, rule: rule.name ?? `seats.rules[${index}]` };
  }
  return { seat: seats.default, rule: 'seats.default' };
}

function matches(rule: SeatRule, employee: Attributes): boolean {
  const { when } = rule;
  const same = (wanted: readonly string[] | undefined, value: string | undefined) => wanted === undefined || (value !== undefined && wanted.some((item) => item.toLowerCase() === value.toLowerCase()));
  if (!same(when.department, employee.department) || !same(when.title, employee.title) || !same(when.location, employee.location)) return false;
  if (when.titleContains !== undefined) {
    const title = employee.title?.toLowerCase();
    if (title === undefined || !when.titleContains.some((part) => title.includes(part.toLowerCase()))) return false;
  }
  return true;
}

/** What in an employee the seat rules read changed, in words (`department Sales → Engineering`); empty when nothing. */
export function attributeChanges(before: Attributes, after: Attributes): string[] {
  const changes: string[] = [];
  for (const field of ['department', 'title', 'location'] as const) {
    if ((before[field] ?? '') !== (after[field] ?? '')) changes.push(`${field} ${before[field] ?? '(none)'} → ${after[field] ?? '(none)'}`);
  }
  return changes;
}
