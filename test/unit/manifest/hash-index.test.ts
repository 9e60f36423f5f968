import { describe, expect, it } from 'vitest';
import { HashIndex } from '../../../src/manifest/hash-index.js';

describe('HashIndex', () => {
  it('finds every key it was given across growth, and nothing else', () => {
    const index = new HashIndex();
    const key = (i: number) => i * 0x200000 + ((i * 2654435761) % 0x1fffff);
    for (let i = 0; i < 20_000; i += 1) index.set(key(i), i);
    for (let i = 0; i < 20_000; i += 1) expect(index.get(key(i))).toBe(i);
    expect(index.get(key(20_001))).toBeUndefined();
    index.set(key(5), 99);
    expect(index.get(key(5))).toBe(99);
  });
});
