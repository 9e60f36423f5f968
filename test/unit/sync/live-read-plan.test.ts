import { describe, expect, it } from 'vitest';
import { durationAtRate } from '../../../src/plan/calls-at-rate.js';
import { describeLiveRead } from '../../../src/sync/describe-live-read.js';
import { planLiveRead, type LiveReadNeeds } from '../../../src/sync/live-read-plan.js';

const MAIN = 5420192837465012;
const LABS = 5420192837465013;
const listing: LiveReadNeeds = { seats: true, lastLogin: true, alternateEmails: false, groupsOwned: true };
const rate = { requests: 300, perSeconds: 60 };

describe('planLiveRead', () => {
  it('reads 100,000 users of one plan in 1,000 calls of 100: lastLogin comes only on pages of at most 100', () => {
    const plan = planLiveRead({ users: 100_000, plans: [{ planId: MAIN, users: 100_000 }] }, listing, 4);
    expect(plan.primary).toEqual({ planId: MAIN, pageSize: 100, calls: 1000 });
    expect(plan.secondary).toEqual([]);
    expect(plan.lastLoginFrom).toBe('listing');
    expect(plan.calls).toBe(1004);
  });

  it('pages by 2000 when lastLogin is not asked for: 50 calls for 100,000 users', () => {
    const plan = planLiveRead({ users: 100_000, plans: [{ planId: MAIN, users: 100_000 }] }, { ...listing, lastLogin: false }, 4);
    expect(plan.primary).toEqual({ planId: MAIN, pageSize: 2000, calls: 50 });
    expect(plan.calls).toBe(54);
  });

  it('costs a call per user only when alternate e-mails are asked for, and then takes lastLogin from those calls and pages by 2000', () => {
    const plan = planLiveRead({ users: 100_000, plans: [{ planId: MAIN, users: 100_000 }] }, { ...listing, alternateEmails: true }, 4);
    expect(plan.perUserCalls).toBe(100_000);
    expect(plan.lastLoginFrom).toBe('per-user');
    expect(plan.primary).toEqual({ planId: MAIN, pageSize: 2000, calls: 50 });
    expect(plan.calls).toBe(100_054);
  });

  it("lists the organization when no plan holds every user, and holds a plan's seats in memory while they fit", () => {
    const plan = planLiveRead({ users: 100_000, plans: [{ planId: MAIN, users: 99_990 }, { planId: LABS, users: 4_000 }] }, listing, 5, { preloadSeats: 120_000 });
    expect(plan.primary).toEqual({ pageSize: 100, calls: 1000 });
    expect(plan.secondary).toEqual([
      { planId: MAIN, users: 99_990, calls: 50, how: 'preload' },
      { planId: LABS, users: 4_000, calls: 2, how: 'preload' },
    ]);
    expect(plan.calls).toBe(5 + 1000 + 52);
  });

  it('looks a plan too large to hold up by e-mail, one call per 100 users, so memory does not grow with the organization', () => {
    const plan = planLiveRead({ users: 100_000, plans: [{ planId: MAIN, users: 99_990 }, { planId: LABS, users: 4_000 }] }, listing, 5);
    expect(plan.secondary).toEqual([
      { planId: MAIN, users: 99_990, calls: 1000, how: 'lookup' },
      { planId: LABS, users: 4_000, calls: 2, how: 'preload' },
    ]);
  });

  it('reads a second plan of a plan that holds everyone from memory, and skips an empty plan', () => {
    const plan = planLiveRead({ users: 317, plans: [{ planId: MAIN, users: 317 }, { planId: LABS, users: 13 }, { planId: 7, users: 0 }] }, listing, 5);
    expect(plan.primary).toEqual({ planId: MAIN, pageSize: 100, calls: 4 });
    expect(plan.secondary).toEqual([
      { planId: LABS, users: 13, calls: 1, how: 'preload' },
      { planId: 7, users: 0, calls: 0, how: 'empty' },
    ]);
    expect(plan.calls).toBe(10);
  });

  it('reads no plan at all when no seat field is asked for', () => {
    const plan = planLiveRead({ users: 4_500, plans: [{ planId: MAIN, users: 4_500 }] }, { seats: false, lastLogin: false, alternateEmails: false, groupsOwned: false }, 2);
    expect(plan.primary).toEqual({ pageSize: 2000, calls: 3 });
    expect(plan.secondary).toEqual([]);
    expect(plan.calls).toBe(5);
  });
});

describe('describeLiveRead', () => {
  it('says the total, its time at the rate limit and why each kind of call costs what it does', () => {
    const plan = planLiveRead({ users: 100_000, plans: [{ planId: MAIN, users: 100_000 }] }, { ...listing, alternateEmails: true }, 4);
    const lines = describeLiveRead(plan, rate);
    expect(lines[0]).toBe('Plan of calls: 100,054 calls for 100,000 users (about 5.6 hours at 300 calls per 60 s)');
    expect(lines).toContainEqual(expect.stringMatching(/^\s+100,000 {2}GET \/users\/\{id\} for each user: alternateEmails is not in the listing/));
    expect(lines).toContainEqual(expect.stringMatching(/^\s+50 {2}list the users of plan 5420192837465012 .*2,000 a page/));
    expect(lines).toContainEqual(expect.stringContaining('"unknown" for everyone else'));
  });

  it('gives durations in seconds, minutes or hours', () => {
    expect(durationAtRate(8, rate)).toBe('2 s');
    expect(durationAtRate(1004, rate)).toBe('3.3 minutes');
    expect(durationAtRate(100_054, rate)).toBe('5.6 hours');
  });
});
