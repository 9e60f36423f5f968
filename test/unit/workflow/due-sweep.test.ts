import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../src/core/logger.js';
import { startDueSweep, SWEEP_STUCK_MS } from '../../../src/workflow/due-sweep.js';

function recordingLogger() {
  const warned: string[] = [];
  const logger = { warn: (_fields: object, message: string) => warned.push(message), debug: () => undefined } as unknown as Logger;
  return { logger, warned };
}

describe('the sweep of due steps', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('runs one sweep at a time while Redis keeps one waiting, and says so once it has waited past the bound', async () => {
    const { logger, warned } = recordingLogger();
    const release: Array<() => void> = [];
    let started = 0;
    const stop = startDueSweep({
      run: () => {
        started += 1;
        return new Promise<void>((resolve) => release.push(resolve));
      },
      everyMs: 1000,
      logger,
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(started).toBe(1);
    expect(warned).toEqual([]);
    // Still waiting past the bound: said, and one more sweep starts beside it (not one per tick).
    await vi.advanceTimersByTimeAsync(SWEEP_STUCK_MS);
    expect(started).toBe(2);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/the sweep of due steps has waited 30 s/);
    // Both end: the next tick starts a sweep again, and each tick after it once the last has ended.
    for (const resolve of release.splice(0)) resolve();
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(3);
    release.splice(0).forEach((resolve) => resolve());
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(4);
    stop();
  });

  it('goes on after a sweep that failed', async () => {
    const { logger } = recordingLogger();
    let started = 0;
    const stop = startDueSweep({
      run: async () => {
        started += 1;
        throw new Error('Connection is closed.');
      },
      everyMs: 1000,
      logger,
    });
    await vi.advanceTimersByTimeAsync(3000);
    expect(started).toBe(3);
    stop();
  });
});
