import { describe, expect, it } from 'vitest';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import type { User, UserProfile } from '../../../src/contract/index.js';
import { createGroupOwnershipReader, groupsOwnedBy, type GroupOwnership } from '../../../src/plan/group-ownership.js';
import { judgeRemoval, type RemovalFacts, type TransferCandidate } from '../../../src/plan/removal-preflight.js';

const leaver = { id: 1, email: 'leaver@acme.example', status: 'ACTIVE' as const };
const member = (email: string, extra: Partial<User> = {}): User => ({ id: email.length * 1000, email, status: 'ACTIVE', seatType: 'MEMBER', licensedSheetCreator: true, groupAdmin: false, admin: false, ...extra });
const OWNS_NONE: GroupOwnership = { known: true, groups: [] };
const OWNS_ONE: GroupOwnership = { known: true, groups: [{ id: 9, name: 'Sales' }] };
const UNKNOWN: GroupOwnership = { known: false, why: 'the service does not list them' };

const row = (user: User | undefined, named = user?.email ?? 'nobody@acme.example'): TransferCandidate => ({ named, from: 'row', user });
const judge = (facts: Partial<RemovalFacts>) => judgeRemoval({ user: leaver, groups: OWNS_NONE, candidates: [], transferSheets: true, ...facts });

describe('judgeRemoval', () => {
  it('removes with the row\'s target when it can take over', () => {
    const boss = member('boss@acme.example');
    expect(judge({ candidates: [row(boss)] })).toEqual({ ok: true, transferTo: { email: 'boss@acme.example', userId: boss.id }, notes: [] });
  });

  it('says on the row that sheets stay with the removed user when nobody takes over, or transferSheets is not true', () => {
    expect(judge({})).toEqual({ ok: true, notes: ['no transfer target: sheets stay with the removed user'] });
    expect(judge({ candidates: [row(member('boss@acme.example'))], transferSheets: false })).toMatchObject({ ok: true, notes: ['sheets stay with the removed user (transferSheets is not true)'] });
  });

  it('refuses a group owner without a target (1108), and a user whose groups the service does not list', () => {
    expect(judge({ groups: OWNS_ONE })).toEqual({ ok: false, rule: 'owns-groups-without-transferTo', reason: 'owns 1 group(s) and has no transfer target: name one who is a group admin' });
    expect(judge({ groups: UNKNOWN })).toMatchObject({ ok: false, rule: 'group-ownership-unknown', reason: expect.stringMatching(/^group ownership unknown \(the service does not list them\), and without a transfer target the service refuses to remove a group owner \(1108\)/) });
  });

  it('refuses a target that is missing, the user itself, not active, on a free seat, leaving, or not a group admin when there are groups', () => {
    const cases: [Partial<RemovalFacts>, RegExp][] = [
      [{ candidates: [row(undefined)] }, /transfer target nobody@acme.example is not a user of the organization/],
      [{ candidates: [row({ ...leaver })] }, /is the user being removed/],
      [{ candidates: [row(member('boss@acme.example', { status: 'DEACTIVATED' }))] }, /boss@acme.example is DEACTIVATED, not ACTIVE/],
      [{ candidates: [row(member('boss@acme.example', { seatType: 'CONTRIBUTOR' }))] }, /is not licensed \(a CONTRIBUTOR seat: cannot own sheets\)/],
      [{ candidates: [{ ...row(member('boss@acme.example')), leavingIn: 'this file, row 4' }] }, /is leaving too \(this file, row 4\)/],
      [{ candidates: [row(member('boss@acme.example'))], groups: OWNS_ONE }, /is not a group admin and cannot receive the 1 group\(s\) the user owns/],
    ];
    for (const [facts, reason] of cases) expect(judge(facts)).toMatchObject({ ok: false, rule: 'transfer-target-invalid', reason: expect.stringMatching(reason) });
    expect(judge({ candidates: [row(member('boss@acme.example', { groupAdmin: true }))], groups: OWNS_ONE })).toMatchObject({ ok: true });
  });

  it('judges "licensed" by the seat the service reports, not by licensedSheetCreator alone', () => {
    const licensed = (extra: Partial<User>) => judge({ candidates: [row(member('boss@acme.example', extra))] }).ok;
    // A target downgraded to a free seat keeps licensedSheetCreator: true on the reference server and on legacy plans.
    expect(['GUEST', 'CONTRIBUTOR', 'VIEWER'].map((seatType) => licensed({ seatType: seatType as User['seatType'], licensedSheetCreator: true }))).toEqual([false, false, false]);
    expect(licensed({ seatType: 'PROVISIONAL_MEMBER', licensedSheetCreator: false })).toBe(true);
    // Full access now; the row says what happens at the end of its review period.
    expect(judge({ candidates: [row(member('new@acme.example', { seatType: 'PROVISIONAL_MEMBER' }))] })).toMatchObject({ ok: true, notes: [expect.stringMatching(/new@acme.example is a Provisional Member: upgrade it to MEMBER/)] });
    // A plan that reports no seat type: licensedSheetCreator decides.
    expect([licensed({ seatType: undefined, licensedSheetCreator: false }), licensed({ seatType: undefined, licensedSheetCreator: true })]).toEqual([false, true]);
    // A seat type the service adds tomorrow is not taken for a paid one.
    expect(licensed({ seatType: 'ENTERPRISE_PLUS' as User['seatType'] })).toBe(false);
  });

  it('falls back to the next candidate, saying why, and lists every problem when none can take over', () => {
    const fallback = member('archive@acme.example');
    const verdict = judge({ candidates: [row(member('boss@acme.example', { status: 'DEACTIVATED' })), { named: fallback.email, from: 'fallback', user: fallback }] });
    expect(verdict).toEqual({ ok: true, transferTo: { email: fallback.email, userId: fallback.id }, notes: ['transfer target boss@acme.example is DEACTIVATED, not ACTIVE: transfers to --transfer-to archive@acme.example instead'] });
    const none = judge({ candidates: [row(undefined), { named: 'x@acme.example', from: 'fallback', user: undefined }] });
    expect(none).toMatchObject({ ok: false, reason: 'transfer target nobody@acme.example is not a user of the organization; transfer target x@acme.example is not a user of the organization' });
  });

  it('plans a target that is not a group admin with a note when the groups are unknown (1107 if the user owns one)', () => {
    expect(judge({ groups: UNKNOWN, candidates: [row(member('boss@acme.example'))] })).toMatchObject({ ok: true, notes: [expect.stringMatching(/group ownership unknown .*boss@acme.example not being a group admin \(1107\)/)] });
    expect(judge({ groups: UNKNOWN, candidates: [row(member('boss@acme.example', { admin: true }))] })).toMatchObject({ ok: true, notes: [] });
  });

  it('refuses a transfer target for a PENDING user (the service takes none)', () => {
    expect(judge({ user: { ...leaver, status: 'PENDING' }, candidates: [row(member('boss@acme.example'))] })).toMatchObject({ ok: false, rule: 'status-not-eligible' });
    expect(judge({ user: { ...leaver, status: 'PENDING' } })).toMatchObject({ ok: true });
  });
});

describe('group ownership', () => {
  const profile = (groups: UserProfile['groups']): UserProfile => ({ id: 1, email: 'leaver@acme.example', ...(groups === undefined ? {} : { groups }) });

  it('reads owned groups from a profile, and unknown when the service listed none or listed no owners', () => {
    expect(groupsOwnedBy(profile([{ id: 9, name: 'Sales', ownerId: 1 }, { id: 10, name: 'All', ownerId: 2 }]))).toEqual({ known: true, groups: [{ id: 9, name: 'Sales' }] });
    expect(groupsOwnedBy(profile(undefined))).toMatchObject({ known: false });
    expect(groupsOwnedBy(profile([{ id: 9, name: 'Sales' }]))).toMatchObject({ known: false, why: expect.stringMatching(/without their owners/) });
  });

  it('stops asking once the service shows it does not list another user\'s groups', async () => {
    const asked: number[] = [];
    const api = { users: { get: async (id: number) => (asked.push(id), { id, email: `u${id}@acme.example` }) } } as unknown as SmartsheetApi;
    const reader = createGroupOwnershipReader(api);
    const answers = [await reader.read(1), await reader.read(2), await reader.read(3)];
    expect(answers.map((answer) => answer.ownership.known)).toEqual([false, false, false]);
    expect(asked).toEqual([1]);
  });

  it('keeps asking while groups are listed, and takes a user not found as unknown', async () => {
    const asked: number[] = [];
    const api = {
      users: {
        get: async (id: number) => {
          asked.push(id);
          if (id === 3) throw Object.assign(new Error('Not Found'), { status: 404 });
          return { id, email: `u${id}@acme.example`, groups: [] };
        },
      },
    } as unknown as SmartsheetApi;
    const reader = createGroupOwnershipReader(api);
    expect((await reader.read(1)).ownership).toEqual({ known: true, groups: [] });
    expect((await reader.read(3)).ownership).toMatchObject({ known: false, why: expect.stringMatching(/not found/) });
    expect((await reader.read(2)).ownership).toEqual({ known: true, groups: [] });
    expect(asked).toEqual([1, 3, 2]);
  });
});
