import { describe, expect, it } from 'vitest';
import { PLAN_READING_STANDS_MS, planReadingStands } from '../../../src/plan/plan-reading-stands.js';

const READ_AT = Date.parse('2026-11-28T09:00:00Z');

describe('planReadingStands', () => {
  it('stands for a step that was due when the plan read it and runs within 15 minutes of the reading', () => {
    expect(planReadingStands(READ_AT, READ_AT, READ_AT)).toBe(true);
    expect(planReadingStands(READ_AT, READ_AT - 60_000, READ_AT + PLAN_READING_STANDS_MS)).toBe(true);
  });

  it('does not stand once the step runs more than 15 minutes after the reading', () => {
    expect(planReadingStands(READ_AT, READ_AT, READ_AT + PLAN_READING_STANDS_MS + 1)).toBe(false);
  });

  it('does not stand for a step due after the reading, however soon it runs', () => {
    expect(planReadingStands(READ_AT, READ_AT + 1, READ_AT + 1)).toBe(false);
  });

  it('does not stand for a reading stamped more than a minute after now: its clock was not the service\'s', () => {
    expect(planReadingStands(READ_AT, READ_AT, READ_AT - 60_000)).toBe(true);
    expect(planReadingStands(READ_AT, READ_AT, READ_AT - 60_001)).toBe(false);
    expect(planReadingStands(READ_AT, READ_AT, READ_AT - 3 * 86_400_000)).toBe(false);
  });

  it('does not stand for a reading of unknown time', () => {
    expect(planReadingStands(Number.NaN, READ_AT, READ_AT)).toBe(false);
  });
});
