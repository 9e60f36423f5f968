import { describe, expect, it } from 'vitest';
import { CompactJsonMap } from '../../../src/manifest/compact-json-map.js';

describe('CompactJsonMap', () => {
  it('answers as a Map of the same entries, in the order keys were first set, across chunks and growth', () => {
    const map = new CompactJsonMap<{ e: string; n: number; d?: string }>();
    const reference = new Map<string, { e: string; n: number; d?: string }>();
    for (let i = 0; i < 20_000; i += 1) {
      const key = `E${(i * 7919) % 15_000}`;
      const value = { e: `user.${i}@acme.example`, n: i, ...(i % 3 === 0 ? { d: 'Engineering' } : {}) };
      map.set(key, value);
      reference.set(key, value);
    }
    expect(map.size).toBe(reference.size);
    expect([...map]).toEqual([...reference]);
    expect([...map.keys()]).toEqual([...reference.keys()]);
    expect([...map.values()]).toEqual([...reference.values()]);
    for (const key of ['E0', 'E14999', 'E7919']) expect(map.get(key)).toEqual(reference.get(key));
    expect([map.has('E1'), map.has('E15000'), map.get('E15000')]).toEqual([true, false, undefined]);
  });

  it('gives a copy, as JSON keeps it: a change is made by setting the value again', () => {
    const map = new CompactJsonMap<{ e: string; s?: string }>().set('1', { e: 'a@acme.example', s: undefined });
    const read = map.get('1')!;
    expect(read).toStrictEqual({ e: 'a@acme.example' });
    read.e = 'changed@acme.example';
    expect(map.get('1')?.e).toBe('a@acme.example');
    map.set('1', read);
    expect(map.get('1')?.e).toBe('changed@acme.example');
    const seen: string[] = [];
    map.forEach((value, key) => seen.push(`${key}=${value.e}`));
    expect(seen).toEqual(['1=changed@acme.example']);
  });
});
