import { describe, expect, it } from 'vitest';
import { checkTimes } from '../../../src/migrate/domain-check-times.js';
import { CHECK_STEPS } from '../../../src/migrate/domain-lifecycle.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('checkTimes', () => {
  it('checks soon, then less often, the last check at the deadline', () => {
    expect(checkTimes(0, 14)).toEqual([HOUR, DAY, 3 * DAY, 7 * DAY, 14 * DAY]);
  });

  it('keeps within the deadline and within the check steps a user has', () => {
    expect(checkTimes(0, 2)).toEqual([HOUR, DAY, 2 * DAY]);
    expect(checkTimes(0, 1)).toEqual([HOUR, DAY]);
    expect(checkTimes(0, 90).length).toBeLessThanOrEqual(CHECK_STEPS.length);
    expect(checkTimes(0, 90).at(-1)).toBe(90 * DAY);
  });
});
