import { describe, expect, it } from 'vitest';
import type { User } from '../../../src/contract/index.js';
import { evaluatePolicy } from '../../../src/reconcile/evaluate-policy.js';
import type { LoadedPolicy, SourceOfTruth } from '../../../src/reconcile/load-policy.js';
import { policySchema } from '../../../src/reconcile/policy.js';

const NOW = new Date('2026-11-23T06:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

let nextId = 1000;
function user(email: string, extra: Partial<User> = {}): User {
  nextId += 1;
  return { id: nextId, email, status: 'ACTIVE', admin: false, seatType: 'MEMBER', lastLogin: daysAgo(1), seatTypeLastChangedAt: daysAgo(400), ...extra };
}

function loaded(policy: unknown, files: Record<string, Record<string, Record<string, string>>> = {}): LoadedPolicy {
  const map = new Map<string, SourceOfTruth>(Object.entries(files).map(([name, rows]) => [name, new Map(Object.entries(rows))]));
  return { path: '/policy.json', sha256: 'abc', policy: policySchema.parse(policy), files: map };
}

const STALE = { name: 'stale', when: { seat: 'MEMBER', lastLoginOlderThanDays: 90 }, then: { seat: 'CONTRIBUTOR' } };
const NEVER = { name: 'never', when: { neverLoggedIn: true, invitedMoreThanDays: 30 }, then: { seat: 'CONTRIBUTOR' } };

describe('evaluatePolicy', () => {
  it('downgrades a member whose last login is older than the rule allows, and leaves recent and borderline ones', () => {
    const users = [user('old@acme.example', { lastLogin: daysAgo(91) }), user('edge@acme.example', { lastLogin: daysAgo(90) }), user('recent@acme.example')];
    const [old, edge, recent] = evaluatePolicy(users, loaded({ rules: [STALE] }), { now: NOW, protectedAccounts: [] });
    expect(old).toMatchObject({ rule: 'stale', seatBefore: 'MEMBER', seatAfter: 'CONTRIBUTOR', action: 'downgrade' });
    expect(edge!.rule).toBeUndefined();
    expect(recent!.action).toBeUndefined();
  });

  it('matches ACTIVE users only unless the rule names a status: a deactivated member is not listed every run', () => {
    const users = [
      user('gone@acme.example', { status: 'DEACTIVATED', lastLogin: daysAgo(200) }),
      user('invited@acme.example', { status: 'PENDING', lastLogin: daysAgo(200) }),
      user('stale@acme.example', { lastLogin: daysAgo(200) }),
    ];
    const byDefault = evaluatePolicy(users, loaded({ rules: [STALE] }), { now: NOW, protectedAccounts: [] });
    expect(byDefault.map((decision) => decision.action)).toEqual([undefined, undefined, 'downgrade']);
    const pending = evaluatePolicy(users, loaded({ rules: [{ ...STALE, when: { ...STALE.when, status: 'PENDING' } }] }), { now: NOW, protectedAccounts: [] });
    expect(pending.map((decision) => decision.action)).toEqual([undefined, 'downgrade', undefined]);
    const any = evaluatePolicy(users, loaded({ rules: [{ ...STALE, when: { ...STALE.when, status: 'ANY' } }] }), { now: NOW, protectedAccounts: [] });
    expect(any.map((decision) => decision.action)).toEqual([undefined, 'downgrade', 'downgrade']);
    // Whatever a rule names, a deactivated user holds no paid seat and the service downgrades only Active users: it is
    // excluded with that reason, never planned (docs/service.md#seats-follow-the-lifecycle).
    expect(any[0]?.excluded).toMatch(/^deactivated: holds no paid seat/);
    const some = evaluatePolicy(users, loaded({ rules: [{ ...STALE, when: { ...STALE.when, status: ['ACTIVE', 'PENDING'] } }] }), { now: NOW, protectedAccounts: [] });
    expect(some.map((decision) => decision.action)).toEqual([undefined, 'downgrade', 'downgrade']);
  });

  it('matches never-logged-in users by the age of their seat, and not users who logged in once', () => {
    const users = [
      user('invited-long-ago@acme.example', { lastLogin: undefined, seatTypeLastChangedAt: daysAgo(41) }),
      user('invited-last-week@acme.example', { lastLogin: undefined, seatTypeLastChangedAt: daysAgo(7) }),
      user('logged-in-once@acme.example', { lastLogin: daysAgo(300), seatTypeLastChangedAt: daysAgo(300) }),
    ];
    const decisions = evaluatePolicy(users, loaded({ rules: [NEVER] }), { now: NOW, protectedAccounts: [] });
    expect(decisions.map((d) => d.action)).toEqual(['downgrade', undefined, undefined]);
  });

  it('lastLoginOlderThanDays does not match users who never logged in', () => {
    const [decision] = evaluatePolicy([user('never@acme.example', { lastLogin: undefined })], loaded({ rules: [STALE] }), { now: NOW, protectedAccounts: [] });
    expect(decision!.rule).toBeUndefined();
  });

  it('takes the first rule that matches: a keep rule protects users from later rules', () => {
    const policy = loaded({ rules: [{ name: 'vip', when: { inFile: 'vip.csv' }, then: { keep: true } }, STALE] }, { 'vip.csv': { 'boss@acme.example': { email: 'boss@acme.example' } } });
    const decisions = evaluatePolicy([user('boss@acme.example', { lastLogin: daysAgo(200) }), user('other@acme.example', { lastLogin: daysAgo(200) })], policy, { now: NOW, protectedAccounts: [] });
    expect(decisions[0]).toMatchObject({ rule: 'vip' });
    expect(decisions[0]!.action).toBeUndefined();
    expect(decisions[1]).toMatchObject({ rule: 'stale', action: 'downgrade' });
  });

  it('reads the seat from the source-of-truth file: upgrades, downgrades, nothing when the seat is already held, next rule when the cell is empty', () => {
    const policy = loaded(
      { rules: [{ when: { inFile: 'hr.csv' }, then: { seatFromColumn: 'seat' } }, STALE] },
      {
        'hr.csv': {
          'viewer@acme.example': { email: 'viewer@acme.example', seat: 'MEMBER' },
          'member@acme.example': { email: 'member@acme.example', seat: 'guest' },
          'same@acme.example': { email: 'same@acme.example', seat: 'VIEWER' },
          'blank@acme.example': { email: 'blank@acme.example', seat: '' },
        },
      },
    );
    const users = [
      user('viewer@acme.example', { seatType: 'VIEWER' }),
      user('member@acme.example'),
      user('same@acme.example', { seatType: 'CONTRIBUTOR' }),
      user('blank@acme.example', { lastLogin: daysAgo(120) }),
    ];
    const decisions = evaluatePolicy(users, policy, { now: NOW, protectedAccounts: [] });
    expect(decisions[0]).toMatchObject({ rule: 'rules[0]', seatBefore: 'CONTRIBUTOR', seatAfter: 'MEMBER', action: 'upgrade' });
    expect(decisions[1]).toMatchObject({ seatAfter: 'GUEST', action: 'downgrade' });
    expect(decisions[2]).toMatchObject({ rule: 'rules[0]', seatAfter: 'CONTRIBUTOR' });
    expect(decisions[2]!.action).toBeUndefined();
    expect(decisions[3]).toMatchObject({ rule: 'stale', action: 'downgrade' });
  });

  it('notInFile matches users missing from the file (left the project)', () => {
    const policy = loaded({ rules: [{ when: { seat: 'MEMBER', notInFile: 'team.csv' }, then: { seat: 'CONTRIBUTOR' } }] }, { 'team.csv': { 'stays@acme.example': { email: 'stays@acme.example' } } });
    const decisions = evaluatePolicy([user('stays@acme.example'), user('left@acme.example')], policy, { now: NOW, protectedAccounts: [] });
    expect(decisions.map((d) => d.action)).toEqual([undefined, 'downgrade']);
  });

  it('excludes admins by default, protected accounts, listed e-mails and domains (sub-domains too), and the caller', () => {
    const stale = { lastLogin: daysAgo(365) };
    const users = [
      user('admin@acme.example', { ...stale, admin: true }),
      user('protected@acme.example', stale),
      user('listed@acme.example', stale),
      user('someone@partner.example', stale),
      user('someone@eu.partner.example', stale),
      user('me@acme.example', stale),
      user('plain@acme.example', stale),
    ];
    const policy = loaded({ rules: [STALE], exclude: { emails: ['Listed@acme.example'], domains: ['partner.example'] } });
    const decisions = evaluatePolicy(users, policy, { now: NOW, protectedAccounts: ['PROTECTED@acme.example'], callerId: users[5]!.id });
    expect(decisions.map((d) => d.excluded)).toEqual([
      'System Admin (exclude.admins)',
      'protected account (guardrails.protectedAccounts)',
      'listed in exclude.emails',
      'domain partner.example (exclude.domains)',
      'domain partner.example (exclude.domains)',
      'the account running seatflow',
      undefined,
    ]);
    expect(decisions.filter((d) => d.action !== undefined).map((d) => d.email)).toEqual(['plain@acme.example']);
  });

  it('touches admins when exclude.admins is false (the pre-flight then refuses them without removeAdminStatus)', () => {
    const [decision] = evaluatePolicy([user('admin@acme.example', { admin: true, lastLogin: daysAgo(365) })], loaded({ rules: [STALE], exclude: { admins: false } }), { now: NOW, protectedAccounts: [] });
    expect(decision).toMatchObject({ action: 'downgrade' });
  });

  it('reads VIEWER as CONTRIBUTOR in seats and rules, and a GUEST going to MEMBER is an upgrade', () => {
    const policy = loaded({ rules: [{ when: { seat: 'viewer' }, then: { seat: 'GUEST' } }, { when: { seat: 'GUEST' }, then: { seat: 'MEMBER' } }] });
    const decisions = evaluatePolicy([user('v@acme.example', { seatType: 'VIEWER' }), user('g@acme.example', { seatType: 'GUEST' })], policy, { now: NOW, protectedAccounts: [] });
    expect(decisions.map((d) => [d.seatBefore, d.seatAfter, d.action])).toEqual([
      ['CONTRIBUTOR', 'GUEST', 'upgrade'],
      ['GUEST', 'MEMBER', 'upgrade'],
    ]);
  });

  it('counts a deactivated user as holding no paid seat and makes no row of it, whatever its listing says (docs/service.md#seats-follow-the-lifecycle)', () => {
    const users = [user('left@acme.example', { status: 'DEACTIVATED', seatType: 'MEMBER', lastLogin: daysAgo(200) }), user('stale@acme.example', { lastLogin: daysAgo(200) })];
    const [left, stale] = evaluatePolicy(users, loaded({ rules: [STALE] }), { now: NOW, protectedAccounts: [] });
    expect(left).toMatchObject({ seatBefore: 'CONTRIBUTOR', excluded: expect.stringMatching(/^deactivated: holds no paid seat/) });
    expect(left!.action).toBeUndefined();
    expect(stale).toMatchObject({ action: 'downgrade' });
  });

  it('flags a user whose seat type seatflow does not know, and judges the others (docs/service.md#reading-leniently)', () => {
    const users = [user('odd@acme.example', { seatType: undefined, lastLogin: daysAgo(200), unrecognized: [{ field: 'seatType', value: 'SUPER_SEAT' }] }), user('stale@acme.example', { lastLogin: daysAgo(200) })];
    const [odd, stale] = evaluatePolicy(users, loaded({ rules: [STALE] }), { now: NOW, protectedAccounts: [] });
    expect(odd!.excluded).toBe('the service reports seatType "SUPER_SEAT", which seatflow does not know');
    expect(stale).toMatchObject({ action: 'downgrade' });
  });
});
