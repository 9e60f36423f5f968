import { SEAT_TYPES, USER_STATUSES, type SeatType, type UserStatus } from '../contract/enums.js';
import type { PersonStore } from '../workflow/person-store.js';
import { planReadingStands } from '../plan/plan-reading-stands.js';
import { describeChangeElsewhere, type ChangeElsewhere, type PersonBase, type WorkflowBase } from '../workflow/workflow-shapes.js';
import type { UserAtPlan } from './hr-workflow-state.js';
import type { LiveMember } from './live-member.js';

/**
 * The plan's reading of a person's user when it still stands for their step (due when the plan read it, run within 15
 * minutes of it: plan-reading-stands.ts); undefined when the step must read for itself. `dueAt` is the later of the
 * person's date and the step's due instant, so a step brought forward to now does not stand on an older reading.
 */
export function standingUserAtPlan(person: { atPlan?: UserAtPlan | undefined }, dueAt: number, nowMs: number): UserAtPlan | undefined {
  const reading = person.atPlan;
  return reading !== undefined && planReadingStands(Date.parse(reading.recordedAt), dueAt, nowMs) ? reading : undefined;
}

/** A member as the plan's listing of `planId` saw them; undefined when it saw no seat there (the step reads it whole). */
export function memberAtPlan(member: LiveMember, planId: number | undefined, plannedAt: number): UserAtPlan | undefined {
  if (planId === undefined || member.seatType === undefined || !known(SEAT_TYPES, member.seatType) || !known(USER_STATUSES, member.status)) return undefined;
  return {
    recordedAt: new Date(plannedAt).toISOString(),
    found: 'member',
    status: member.status as UserStatus,
    ...(member.admin === undefined ? {} : { admin: member.admin }),
    planId,
    seatType: member.seatType as SeatType,
    ...(member.isInternal === undefined ? {} : { isInternal: member.isInternal }),
  };
}

/**
 * A person's user changed outside seatflow after the plan read it: the plan's reading no longer stands, so their step
 * reads again; the change is kept as a note, as for any lifecycle that does not re-check at once (changed-elsewhere.ts).
 */
export async function forgetUserAtPlan<P extends PersonBase & { atPlan?: UserAtPlan | undefined }>(persons: Pick<PersonStore<P>, 'update'>, workflow: WorkflowBase, person: P, change: ChangeElsewhere): Promise<'noted' | 'unchanged'> {
  const note = describeChangeElsewhere(change);
  const updated = await persons.update(workflow.id, person.row, (current) => {
    if (current.notes.includes(note) && current.atPlan === undefined) return undefined;
    const { atPlan: _forgotten, ...rest } = current;
    return { ...rest, notes: current.notes.includes(note) ? current.notes : [...current.notes, note] } as P;
  });
  return updated === undefined ? 'unchanged' : 'noted';
}

function known(values: readonly string[], value: string | undefined): boolean {
  return value !== undefined && values.includes(value);
}
