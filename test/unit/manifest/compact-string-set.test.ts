import { describe, expect, it } from 'vitest';
import { CompactStringSet } from '../../../src/manifest/compact-string-set.js';

describe('CompactStringSet', () => {
  it('holds each string once, in the order added, as a Set does, across growth', () => {
    const set = new CompactStringSet();
    const reference = new Set<string>();
    for (let i = 0; i < 30_000; i += 1) {
      const value = `user.${(i * 7919) % 20_000}@acme.example`;
      expect(set.add(value)).toBe(!reference.has(value));
      reference.add(value);
    }
    expect(set.size).toBe(reference.size);
    expect([...set]).toEqual([...reference]);
    expect(set.has('user.19999@acme.example')).toBe(true);
    expect(set.has('user.20000@acme.example')).toBe(false);
  });

  it('tells apart strings UTF-8 would not keep apart (lone surrogates) and keeps any text exactly', () => {
    const set = new CompactStringSet();
    const values = ['\ud800', '\udc00', '\ufffd', 'a\ud83d\ude00b', '', 'zürich@acme.example', '\u0000'];
    for (const value of values) expect(set.add(value)).toBe(true);
    for (const value of values) expect(set.add(value)).toBe(false);
    expect([...set]).toEqual(values);
  });

  it('gives each string its position in the order added, and the string at a position', () => {
    const set = new CompactStringSet();
    for (let i = 0; i < 5000; i += 1) set.add(`E${i}`);
    set.add('E7');
    expect([set.indexOf('E0'), set.indexOf('E4999'), set.indexOf('E7'), set.indexOf('E5000')]).toEqual([0, 4999, 7, -1]);
    expect([set.at(0), set.at(4999)]).toEqual(['E0', 'E4999']);
  });

  it('is empty again after clear', () => {
    const set = new CompactStringSet();
    set.add('a@acme.example');
    set.clear();
    expect(set.size).toBe(0);
    expect(set.has('a@acme.example')).toBe(false);
    expect([...set]).toEqual([]);
  });
});
