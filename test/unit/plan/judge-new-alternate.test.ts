import { describe, expect, it } from 'vitest';
import { ALTERNATE_EMAIL_LIMIT, type AlternateEmail, type User } from '../../../src/contract/index.js';
import { judgeNewAlternate } from '../../../src/plan/judge-new-alternate.js';

const dana: User = { id: 1, email: 'dana@acme.example' };
const lee: User = { id: 2, email: 'lee@acme.example' };
const facts = (alternates: [number, AlternateEmail[]][]) => ({ usersByEmail: new Map([[dana.email, dana], [lee.email, lee]]), alternates: new Map(alternates) });

describe('judgeNewAlternate', () => {
  it('is a no-op for the user\'s own alternate, saying when it waits for confirmation', () => {
    expect(judgeNewAlternate(dana, 'dana@acme.io', facts([[1, [{ id: 9, email: 'Dana@acme.io', confirmed: false }]]]), {})).toEqual({ verdict: 'no-op', reason: 'dana@acme.io is already an alternate address (not confirmed yet)', target: { alternateEmailId: 9 } });
  });

  it('foresees the service\'s clashes: someone\'s primary (1157), another user\'s alternate (1159)', () => {
    expect(judgeNewAlternate(dana, 'lee@acme.example', facts([[1, []]]), {})).toMatchObject({ verdict: 'conflict', errorCode: 1157, reason: 'lee@acme.example is the primary address of user 2' });
    expect(judgeNewAlternate(dana, 'dana@acme.example', facts([[1, []]]), {})).toMatchObject({ verdict: 'conflict', errorCode: 1157, reason: /of this user/ });
    expect(judgeNewAlternate(dana, 'd@acme.io', facts([[1, []], [2, [{ id: 5, email: 'd@acme.io' }]]]), {})).toMatchObject({ verdict: 'conflict', errorCode: 1159 });
  });

  it('refuses a user at the per-user limit (1330)', () => {
    const full = Array.from({ length: ALTERNATE_EMAIL_LIMIT }, (_, i) => ({ id: 100 + i, email: `old${i}@acme.example` }));
    expect(judgeNewAlternate(dana, 'dana@acme.io', facts([[1, full]]), {})).toMatchObject({ verdict: 'refused', rule: 'alternate-email-limit', errorCode: 1330 });
    expect(judgeNewAlternate(dana, 'dana@acme.io', facts([[1, full.slice(1)]]), {}).verdict).toBe('change');
  });
});
