import { describe, expect, it } from 'vitest';
import type { MoverState, UserAtPlan } from '../../../src/sync/hr-workflow-state.js';
import { forgetUserAtPlan, memberAtPlan, standingUserAtPlan } from '../../../src/sync/user-at-plan.js';
import { PLAN_READING_STANDS_MS } from '../../../src/plan/plan-reading-stands.js';

const PLANNED_AT = Date.parse('2026-11-28T09:00:00Z');
const PLAN_ID = 77;
const reading: UserAtPlan = { recordedAt: new Date(PLANNED_AT).toISOString(), found: 'member', status: 'ACTIVE', admin: false, planId: PLAN_ID, seatType: 'MEMBER', isInternal: true };

describe('standingUserAtPlan', () => {
  it('gives the plan\'s reading to a step that was due when the plan read it and runs within 15 minutes of it', () => {
    expect(standingUserAtPlan({ atPlan: reading }, PLANNED_AT - 60_000, PLANNED_AT + PLAN_READING_STANDS_MS)).toBe(reading);
  });

  it('gives nothing once the reading is older than 15 minutes at the step: the step reads again', () => {
    expect(standingUserAtPlan({ atPlan: reading }, PLANNED_AT, PLANNED_AT + PLAN_READING_STANDS_MS + 1)).toBeUndefined();
  });

  it('gives nothing to a step due after the plan read it (a later effective date), however soon it runs', () => {
    expect(standingUserAtPlan({ atPlan: reading }, PLANNED_AT + 1, PLANNED_AT + 2)).toBeUndefined();
  });

  it('gives nothing to a person the plan kept no reading of', () => {
    expect(standingUserAtPlan({}, PLANNED_AT, PLANNED_AT)).toBeUndefined();
  });
});

describe('memberAtPlan', () => {
  it('keeps the status, admin flag and seat the listing of the plan gave, as of the plan', () => {
    expect(memberAtPlan({ id: 1, email: 'ann@acme.example', status: 'ACTIVE', admin: false, seat: 'MEMBER', seatType: 'MEMBER', isInternal: true }, PLAN_ID, PLANNED_AT)).toEqual(reading);
  });

  it('keeps nothing for a member the listing saw no seat of, or a status it does not know, or when no plan is named', () => {
    expect(memberAtPlan({ id: 1, email: 'ann@acme.example', status: 'ACTIVE' }, PLAN_ID, PLANNED_AT)).toBeUndefined();
    expect(memberAtPlan({ id: 1, email: 'ann@acme.example', status: 'ON_LEAVE' as 'ACTIVE', seatType: 'MEMBER' }, PLAN_ID, PLANNED_AT)).toBeUndefined();
    expect(memberAtPlan({ id: 1, email: 'ann@acme.example', status: 'ACTIVE', seatType: 'MEMBER' }, undefined, PLANNED_AT)).toBeUndefined();
  });
});

describe('forgetUserAtPlan', () => {
  it('drops the plan\'s reading of a person changed elsewhere, so the step reads again, and notes the change once', async () => {
    let stored = { row: 3, atPlan: reading, notes: [] as string[] } as unknown as MoverState;
    const persons = {
      update: (_workflowId: string, _row: number, change: (person: MoverState) => MoverState | undefined) => {
        const next = change(stored);
        if (next !== undefined) stored = next;
        return Promise.resolve(next);
      },
    };
    const workflow = { id: 'w' } as Parameters<typeof forgetUserAtPlan>[1];
    const change = { event: 'user.seatType.updated', at: '2026-11-28T09:05:00Z', seatType: 'CONTRIBUTOR' };
    expect(await forgetUserAtPlan(persons, workflow, stored, change)).toBe('noted');
    expect(stored.atPlan).toBeUndefined();
    expect(stored.notes).toEqual(['user.seatType.updated (CONTRIBUTOR) outside seatflow at 2026-11-28T09:05:00Z']);
    expect(await forgetUserAtPlan(persons, workflow, stored, change)).toBe('unchanged');
    expect(standingUserAtPlan(stored, PLANNED_AT, PLANNED_AT)).toBeUndefined();
  });
});
