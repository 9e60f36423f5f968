import { describe, expect, it } from 'vitest';
import { plannedStateBefore } from '../../../src/plan/planned-state-before.js';

const READ_AT = Date.parse('2026-11-28T12:00:00.000Z');
const target = { readAtPlan: { readAt: new Date(READ_AT).toISOString(), state: { primaryEmail: 'ann@acme.example' } } };

describe('plannedStateBefore: what the plan read stands in for a read before the change', () => {
  it('stands within 15 minutes of the reading', () => {
    expect(plannedStateBefore(target, READ_AT)).toEqual({ primaryEmail: 'ann@acme.example' });
    expect(plannedStateBefore(target, READ_AT + 15 * 60_000)).toEqual({ primaryEmail: 'ann@acme.example' });
  });

  it('does not stand later, nor without a reading or with an unreadable time: the job type reads then', () => {
    expect(plannedStateBefore(target, READ_AT + 15 * 60_000 + 1)).toBeUndefined();
    expect(plannedStateBefore({}, READ_AT)).toBeUndefined();
    expect(plannedStateBefore({ readAtPlan: { readAt: 'not a time', state: {} } }, READ_AT)).toBeUndefined();
  });
});
