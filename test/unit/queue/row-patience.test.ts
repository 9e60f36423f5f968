import { describe, expect, it } from 'vitest';
import { LATE_CONFIRM_TRIES, LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE, lateConfirmDelayMs, longestParkMs, readsAgain } from '../../../src/queue/row-patience.js';

const DEFAULT_MAX_DELAY_MS = 60_000;

describe('late confirm-only reads while the service cannot answer', () => {
  const gaps = Array.from({ length: LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE - 1 }, (_, i) => lateConfirmDelayMs(i + 1, DEFAULT_MAX_DELAY_MS));

  it('start retry.maxDelayMs apart and grow apart, up to 30 times it', () => {
    expect(gaps[0]).toBe(DEFAULT_MAX_DELAY_MS);
    expect(gaps.every((gap, i) => i === 0 || gap >= gaps[i - 1]!)).toBe(true);
    expect(Math.max(...gaps)).toBe(30 * DEFAULT_MAX_DELAY_MS);
  });

  it('span about three and a half hours at the default, as docs/batches.md says', () => {
    const hours = gaps.reduce((sum, gap) => sum + gap, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(3.25);
    expect(hours).toBeLessThan(3.75);
  });

  it('never park a row further ahead than status takes for plausible', () => {
    for (const maxDelayMs of [20, 1000, DEFAULT_MAX_DELAY_MS, 600_000]) {
      const widest = Math.max(...Array.from({ length: LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE }, (_, i) => lateConfirmDelayMs(i + 1, maxDelayMs)));
      expect(widest).toBeLessThanOrEqual(longestParkMs(maxDelayMs));
    }
  });
});

describe('whether a row reads again after a late confirm read failed', () => {
  it('gives up after 12 reads the service could not answer, or 3 it refused, on a row nothing waits on', () => {
    expect(readsAgain(LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE - 1, true, false)).toBe(true);
    expect(readsAgain(LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE, true, false)).toBe(false);
    expect(readsAgain(LATE_CONFIRM_TRIES - 1, false, false)).toBe(true);
    expect(readsAgain(LATE_CONFIRM_TRIES, false, false)).toBe(false);
  });

  it('reads on while the service cannot answer when a step waits on the row, and not when the read was refused', () => {
    for (const tries of [LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE, 100, 10_000]) expect(readsAgain(tries, true, true)).toBe(true);
    expect(readsAgain(LATE_CONFIRM_TRIES, false, true)).toBe(false);
  });

  it('keeps a step\'s row at the widest gap however long it reads on', () => {
    expect(lateConfirmDelayMs(10_000, DEFAULT_MAX_DELAY_MS)).toBe(30 * DEFAULT_MAX_DELAY_MS);
  });
});
