import { describe, expect, it } from 'vitest';
import { forEachLimited } from '../../../src/core/for-each-limited.js';

describe('forEachLimited', () => {
  it('runs every item once, never more than `concurrency` at a time', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(item);
      running -= 1;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('rejects with the first failure, and does nothing for no items', async () => {
    await expect(forEachLimited([1, 2], 2, async (item) => { if (item === 2) throw new Error('two'); })).rejects.toThrow('two');
    await expect(forEachLimited([], 4, () => Promise.reject(new Error('never')))).resolves.toBeUndefined();
  });
});
