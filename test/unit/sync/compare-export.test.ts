import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/seatflow-error.js';
import { RowStore } from '../../../src/manifest/row-store.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { createAcceptedExports } from '../../../src/sync/accepted-exports.js';
import { compareExport } from '../../../src/sync/compare-export.js';
import type { Employee, KeptEmployee } from '../../../src/sync/employee.js';
import { lifecyclePolicySchema } from '../../../src/sync/lifecycle-policy.js';
import { LiveIndex } from '../../../src/sync/live-index.js';
import { syncCandidates, type CandidateContext, type Candidates } from '../../../src/sync/sync-candidates.js';
import type { LiveMember } from '../../../src/sync/live-member.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const DAY = 86_400_000;
const DEPARTMENTS = ['Engineering', 'Sales', 'Finance', 'Support'];
const TITLES = ['Engineer', 'Specialist', 'Manager'];

/** A seeded generator (mulberry32): the same sequence of exports on every run. */
function randomOf(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { chance: (p: number) => next() < p, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

/** What HR says of one person; an export writes everyone still in it. */
interface Person {
  id: string;
  email: string;
  status?: 'active' | 'leaver';
  startAt?: number;
  endAt?: number;
  department: string;
  title: string;
  location?: string;
  managerEmail?: string;
  inExport: boolean;
}

/** The export's employees as the reader makes them (no property holds undefined). */
function employeesOf(people: readonly Person[]): Employee[] {
  return people
    .filter((person) => person.inExport)
    .map((person, index) => ({
      row: index + 1,
      line: index + 2,
      employeeId: person.id,
      email: person.email,
      ...(person.status === undefined ? {} : { status: person.status, statusWritten: person.status === 'active' ? 'Active' : 'Terminated' }),
      ...(person.startAt === undefined ? {} : { startAt: person.startAt, start: { written: new Date(person.startAt).toISOString().slice(0, 10), column: 'Hire Date', readAs: 'start of it in UTC' } }),
      ...(person.endAt === undefined ? {} : { endAt: person.endAt, end: { written: new Date(person.endAt).toISOString().slice(0, 10), column: 'Termination Date', readAs: 'end of last day in UTC' } }),
      department: person.department,
      title: person.title,
      ...(person.location === undefined ? {} : { location: person.location }),
      ...(person.managerEmail === undefined ? {} : { managerEmail: person.managerEmail }),
      timeZone: 'UTC',
    }));
}

/** The accepted export as the sync read it before it was streamed: one HSCAN walk into a Map. */
async function acceptedAsMap(redis: ReturnType<typeof useTestRedisClient>['client'], key: string): Promise<Map<string, KeptEmployee>> {
  const kept = new Map<string, KeptEmployee>();
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(key, cursor, 'COUNT', 2000);
    for (let i = 0; i + 1 < flat.length; i += 2) kept.set(flat[i]!, JSON.parse(flat[i + 1]!) as KeptEmployee);
    cursor = next;
  } while (cursor !== '0');
  return kept;
}

function liveIndexOf(live: ReadonlyMap<string, LiveMember>): LiveIndex {
  const index = new LiveIndex();
  for (const member of live.values()) index.set(member);
  return index;
}

const comparable = (candidates: Candidates) => ({ ...candidates, kept: [...candidates.kept] });

describe('compareExport', () => {
  const redis = useTestRedisClient();

  it('plans what syncCandidates over whole maps plans, on a random sequence of exports: joiners, movers, leavers, gone, rehires, a broken export', async () => {
    const random = randomOf(21);
    const keys = createQueueKeys(redis.server.prefix());
    const accepted = createAcceptedExports(redis.client, keys, 'https://api.example', 'policy');
    const people: Person[] = [];
    const live = new Map<string, LiveMember>();
    let nextUserId = 1000;
    const join = (email: string, extra: Partial<LiveMember> = {}) => live.set(email, { id: nextUserId++, email, status: 'ACTIVE', admin: false, seat: 'MEMBER', ...extra });
    const hire = (n: number, now: number) => {
      const person: Person = { id: `E${people.length + 1}`, email: `p${people.length + 1}@${random.chance(0.05) ? 'partner.example' : 'acme.example'}`, status: random.pick(['active', undefined] as const), department: random.pick(DEPARTMENTS), title: random.pick(TITLES), inExport: true };
      if (random.chance(0.5)) person.startAt = now + (random.chance(0.5) ? 3 : -300) * DAY;
      if (random.chance(0.1)) person.endAt = now + 60 * DAY;
      if (random.chance(0.5)) person.location = random.pick(['Berlin', 'Austin']);
      if (n > 0 && people.length > 0) person.managerEmail = random.pick(people).email;
      people.push(person);
      return person;
    };
    join('caller@acme.example', { admin: true });
    join('admin@acme.example', { admin: true });
    for (let i = 0; i < 8; i += 1) join(`stray${i}@acme.example`, { status: random.pick(['ACTIVE', 'DEACTIVATED', 'PENDING'] as const), seat: random.pick(['MEMBER', 'CONTRIBUTOR'] as const) });
    for (let i = 0; i < 180; i += 1) {
      const person = hire(i, Date.parse('2026-11-01T02:00:00Z'));
      if (random.chance(0.85)) join(person.email, { status: random.chance(0.1) ? 'DEACTIVATED' : 'ACTIVE', seat: random.pick(['MEMBER', 'CONTRIBUTOR'] as const) });
    }

    const seen = new Map<string, number>();
    const count = (kind: string, n: number) => seen.set(kind, (seen.get(kind) ?? 0) + n);
    for (let night = 0; night < 14; night += 1) {
      const now = Date.parse('2026-11-01T02:00:00Z') + night * DAY;
      // What HR changed since the night before.
      for (const person of people) {
        if (person.inExport && random.chance(0.03)) person.inExport = false;
        else if (!person.inExport && random.chance(0.2)) person.inExport = true;
        if (random.chance(0.05)) person.department = random.pick(DEPARTMENTS);
        if (random.chance(0.03)) person.title = random.pick(TITLES);
        if (random.chance(0.02)) person.location = random.pick(['Berlin', 'Austin', 'Lisbon']);
        if (random.chance(0.03)) person.endAt = now + (random.chance(0.5) ? 7 : -1) * DAY;
        if (random.chance(0.02)) person.status = 'leaver';
        if (random.chance(0.03)) {
          delete person.endAt;
          person.status = 'active';
        }
        if (random.chance(0.02)) person.startAt = now + 5 * DAY;
        if (random.chance(0.03)) person.managerEmail = random.pick(people).email;
      }
      for (let i = 0; i < 4; i += 1) hire(1, now);
      const broken = night === 9;
      const exported = employeesOf(broken ? people.filter(() => random.chance(0.4)) : people);

      const policy = lifecyclePolicySchema.parse({
        timeZone: 'UTC',
        seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }, { when: { titleContains: ['manager'] }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' },
        protect: { emails: [people[3]!.email], domains: ['partner.example'], admins: night % 2 === 0 },
        notInExport: night % 3 === 2 ? 'offboard' : 'list',
      });
      const userIds = [...live.values()].map((user) => user.id);
      const context: Omit<CandidateContext, 'firstSync'> = {
        live,
        leaving: new Map(userIds.filter(() => random.chance(0.06)).map((id, row) => [id, `offboarding o-${night} row ${row + 1}`])),
        pendingJoin: new Set(exported.filter((employee) => !live.has(employee.email) && random.chance(0.1)).map((employee) => employee.email)),
        pendingMove: new Set(userIds.filter(() => random.chance(0.05))),
        policy,
        protectedAccounts: [people[5]!.email.toUpperCase(), String(userIds[7])],
        callerId: live.get('caller@acme.example')!.id,
        nowMs: now,
        nextRow: exported.length + 1,
      };
      const meta = await accepted.meta();
      const previous = meta === undefined ? undefined : await acceptedAsMap(redis.client, keys.syncAccepted(accepted.key));

      const whole = syncCandidates({ ...context, employees: exported, previous });
      const bounded = await compareExport(
        { ...context, live: liveIndexOf(live) },
        RowStore.of(exported, { chunkChars: 2048 }),
        meta === undefined ? undefined : { exports: accepted, meta },
        7,
      );
      expect(comparable(bounded.candidates)).toEqual(comparable(whole));
      expect(bounded.previousSize).toBe(previous?.size ?? 0);
      count('add', whole.joiners.filter((joiner) => joiner.how === 'add').length);
      count('reactivate', whole.joiners.filter((joiner) => joiner.how === 'reactivate').length);
      count('mover', whole.movers.length);
      count('leaver', whole.leavers.filter((leaver) => !leaver.absent).length);
      count('absent leaver', whole.leavers.filter((leaver) => leaver.absent).length);
      for (const kind of ['undos', 'transfers', 'protected', 'listed', 'notInExport'] as const) count(kind, whole[kind].length);
      count('gone', whole.gone);

      // Applied (a broken export is held, and some nights nobody applies): the export is accepted, the organization follows.
      if (broken || random.chance(0.15)) continue;
      await accepted.accept({ sha256: `night-${night}`, exportedAt: now, exportedAtFrom: 'column', acceptedAt: new Date(now).toISOString(), employees: exported.length, file: 'hr.csv', runId: `run-${night}` }, bounded.candidates.kept);
      for (const joiner of whole.joiners) if (random.chance(0.8)) join(joiner.employee.email, { seat: joiner.seat.seat });
      for (const joiner of whole.joiners) if (joiner.how === 'reactivate') live.set(joiner.employee.email, { ...live.get(joiner.employee.email)!, status: 'ACTIVE' });
      for (const mover of whole.movers) live.set(mover.employee.email, { ...mover.user, seat: mover.seat.seat });
      // In e-mail order: absent leavers come in the order Redis walks the accepted export's hash, which its random hash
      // seed changes from one Redis start to the next; the draws must not follow it, or the sequence is not the same.
      const leavers = [...whole.leavers].sort((a, b) => a.email.localeCompare(b.email));
      for (const leaver of leavers) if (live.has(leaver.email) && random.chance(0.7)) live.set(leaver.email, { ...live.get(leaver.email)!, status: 'DEACTIVATED' });
    }
    // The sequence exercised every kind of outcome, not only quiet nights.
    expect([...seen].filter(([, n]) => n === 0)).toEqual([]);
    expect(seen.size).toBe(11);
  });

  it('refuses a plan during which another sync of the target and policy accepted an export: it compared with parts of two', async () => {
    const accepted = createAcceptedExports(redis.client, createQueueKeys(redis.server.prefix()), 'https://api.example', 'policy');
    const metaOf = (night: number) => ({ sha256: `night-${night}`, exportedAt: night, exportedAtFrom: 'column', acceptedAt: `2026-11-0${night}T02:00:00.000Z`, employees: 1, file: `hr-${night}.csv`, runId: `run-${night}` }) as const;
    await accepted.accept(metaOf(1), [['E1', { e: 'ann@acme.example', d: 'Sales' }]]);
    const meta = (await accepted.meta())!;
    let calls = 0;
    const racing = {
      ...accepted,
      async employeesById(ids: readonly string[]) {
        calls += 1;
        if (calls === 2) await accepted.accept(metaOf(2), [['E1', { e: 'ann@acme.example', d: 'Engineering' }]]);
        return accepted.employeesById(ids);
      },
    };
    const policy = lifecyclePolicySchema.parse({ timeZone: 'UTC', seats: {} });
    const context = { live: new Map(), leaving: new Map(), pendingJoin: new Set<string>(), pendingMove: new Set<number>(), policy, protectedAccounts: [], callerId: 1, nowMs: 0, nextRow: 4 };
    const exported = employeesOf([1, 2, 3].map((n) => ({ id: `E${n}`, email: `p${n}@acme.example`, department: 'Sales', title: 'Engineer', inExport: true })));
    const error = await compareExport(context, exported, { exports: racing, meta }, 2).then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/another sync of this target and policy accepted an export \(hr-2\.csv, accepted 2026-11-02T02:00:00\.000Z\) while this one compared with the one accepted 2026-11-01T02:00:00\.000Z: nothing was planned/);
    // Without an accept meanwhile, the same comparison plans.
    await expect(compareExport(context, exported, { exports: accepted, meta: (await accepted.meta())! }, 2)).resolves.toMatchObject({ previousSize: 1 });
  });
});
