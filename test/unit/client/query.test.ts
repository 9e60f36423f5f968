import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../../src/client/query.js';
import { pathOf } from '../../../src/client/arguments.js';

describe('buildQuery', () => {
  it('joins lists with commas in one parameter and encodes each item', () => {
    expect(buildQuery({ email: ['a+b@acme.example', 'c@acme.example'], include: ['lastLogin'] })).toBe(
      '?email=a%2Bb%40acme.example,c%40acme.example&include=lastLogin',
    );
  });

  it('writes booleans as true/false and numbers as digits', () => {
    expect(buildQuery({ sendEmail: false, includeAll: true, planId: 5420192837465012 })).toBe('?sendEmail=false&includeAll=true&planId=5420192837465012');
  });

  it('leaves out absent, null, empty-string and empty-list values', () => {
    expect(buildQuery({ a: undefined, b: null, c: '', d: [] })).toBe('');
  });
});

describe('pathOf', () => {
  it('writes literal segments in lower case and ids as digits', () => {
    expect(pathOf('users', 12, 'alternateEmails', 34, 'makePrimary')).toBe('/users/12/alternateemails/34/makeprimary');
  });
});
