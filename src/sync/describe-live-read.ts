import { durationAtRate } from '../plan/calls-at-rate.js';
import type { LiveReadPlan } from './live-read-plan.js';

const count = (value: number) => value.toLocaleString('en-US');

/**
 * The plan of calls as a person reads it before the read starts: the total, its time at the rate limit, and one line
 * per kind of call with its count and why it costs what it does.
 */
export function describeLiveRead(plan: LiveReadPlan, rate: { requests: number; perSeconds: number }): string[] {
  const counted = plan.needs.seats ? 'the plans and how many users each holds' : 'how many users the organization holds';
  const rows: [number, string][] = [[plan.probeCalls, `found the caller, ${counted}`]];
  const { primary } = plan;
  const whose = primary.planId === undefined ? 'the organization' : `plan ${primary.planId} (it holds every user, so its seats come with it)`;
  const why = plan.lastLoginFrom === 'listing' ? ': lastLogin comes only on pages of at most 100 users' : ', the most the service allows';
  rows.push([primary.calls, `list the users of ${whose}, ${count(primary.pageSize)} a page${why}`]);
  for (const other of plan.secondary) {
    if (other.how === 'empty') rows.push([0, `plan ${other.planId}: no users hold a seat in it`]);
    else if (other.how === 'preload') rows.push([other.calls, `read the ${count(other.users)} seats of plan ${other.planId} (held in memory while the users stream)`]);
    else rows.push([other.calls, `look up the seats of plan ${other.planId} by e-mail, 100 users a call (${count(other.users)} seats: too many to hold)`]);
  }
  if (plan.needs.seats && primary.planId === undefined && plan.secondary.length === 0) {
    rows.push([0, 'no plan to read seats from: the caller holds a seat in none (name plans with --plan); seat fields stay empty']);
  }
  if (plan.perUserCalls > 0) {
    const also = plan.lastLoginFrom === 'per-user' ? ' (lastLogin comes with it, so the listing pages by 2000)' : '';
    rows.push([plan.perUserCalls, `GET /users/{id} for each user: alternateEmails is not in the listing${also}`]);
  }
  if (plan.needs.groupsOwned) rows.push([0, 'groupsOwned: readable for the caller only (GET /users/me); "unknown" for everyone else']);
  const width = Math.max(...rows.map(([calls]) => count(calls).length));
  return [
    `Plan of calls: ${count(plan.calls)} calls for ${count(plan.users)} users (about ${durationAtRate(plan.calls, rate)} at ${rate.requests} calls per ${rate.perSeconds} s)`,
    ...rows.map(([calls, what]) => `  ${count(calls).padStart(width)}  ${what}`),
  ];
}
