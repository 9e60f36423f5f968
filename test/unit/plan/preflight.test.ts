import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../../src/manifest/load-manifest.js';
import { countCalls } from '../../../src/plan/count-calls.js';
import { preflight } from '../../../src/plan/preflight.js';
import type { PlannedRow } from '../../../src/plan/planned-row.js';
import { createFakeApi, demoOrg } from './fake-api.js';

async function plan(csv: string, options: { extraUsers?: number; protectedAccounts?: string[]; file?: string } = {}) {
  const manifest = await loadManifest({ path: options.file ?? '/data/m.csv', content: csv });
  expect(manifest.invalid).toEqual([]);
  const api = createFakeApi(demoOrg(options.extraUsers ?? 0));
  return preflight(manifest, { api, ...(options.protectedAccounts ? { protectedAccounts: options.protectedAccounts } : {}) });
}
const brief = (row: PlannedRow | undefined) => [row?.verdict, row?.rule, row?.reason];

describe('preflight', () => {
  it('classifies lifecycle rows: change, no-op, refused (ISP, status, own account) and not-found', async () => {
    const result = await plan(
      'email,action\nmarcus.chen@acme.example,deactivate\ntaylor.brooks@acme.example,deactivate\nsam.taylor@gmail.com,deactivate\npat.quinn@acme.example,deactivate\nadmin@acme.example,deactivate\nghost@acme.example,deactivate\nriley.owens@acme.example,reactivate\njordan.lee@acme.example,reactivate\n',
    );
    expect([...result.rows].map((r) => [r.verdict, r.rule])).toEqual([
      ['change', undefined],
      ['no-op', undefined],
      ['refused', 'isp-domain'],
      ['refused', 'status-not-eligible'],
      ['refused', 'own-account'],
      ['not-found', undefined],
      ['no-op', undefined],
      ['no-op', undefined],
    ]);
    expect(result.rows.at(0)?.target).toMatchObject({ userId: expect.any(Number), email: 'marcus.chen@acme.example' });
    expect(result.summary).toEqual({ total: 8, change: 1, 'no-op': 3, refused: 3, 'not-found': 1, conflict: 0, invalid: 0 });
  });

  it('gives a refused row the errorCode the service would answer at run time (consumer domain, yourself, not a member)', async () => {
    // One row per user and file: the whole-file checks refuse contradicting rows for one user.
    const cases: [string, string, number | undefined][] = [
      ['sam.taylor@gmail.com,deactivate', 'isp-domain', 1359],
      ['admin@acme.example,deactivate', 'own-account', 1336],
      ['admin@acme.example,reactivate', 'own-account', 1355],
      ['admin@acme.example,remove', 'own-account', 1047],
      ['pat.quinn@acme.example,deactivate', 'status-not-eligible', 1335],
      ['pat.quinn@acme.example,reactivate', 'status-not-eligible', 1354],
      // seatflow's own guard: the service documents no refusal for updating yourself.
      ['admin@acme.example,update,Avery', 'own-account', undefined],
    ];
    for (const [row, rule, errorCode] of cases) {
      const result = await plan(`email,action,firstName\n${row}\n`);
      expect([result.rows.at(0)?.verdict, result.rows.at(0)?.rule, result.rows.at(0)?.errorCode]).toEqual(['refused', rule, errorCode]);
    }
  });

  it('says a downgrade to the retired VIEWER seat is sent as CONTRIBUTOR, and as VIEWER before the sunset', async () => {
    const csv = 'email,action,seatType\nmarcus.chen@acme.example,downgrade,VIEWER\njordan.lee@acme.example,downgrade,\n';
    const manifest = await loadManifest({ path: '/data/m.csv', content: csv });
    const after = await preflight(manifest, { api: createFakeApi(demoOrg(0)), pastViewerSunset: true });
    expect([...after.rows].map((r) => r.reason)).toEqual([
      'MEMBER → CONTRIBUTOR (VIEWER is retired: sent as CONTRIBUTOR)',
      'MEMBER → CONTRIBUTOR (VIEWER is retired: sent as CONTRIBUTOR)',
    ]);
    const before = await preflight(manifest, { api: createFakeApi(demoOrg(0)), pastViewerSunset: false });
    expect(before.rows.at(0)?.reason).toBe('MEMBER → VIEWER (sent as VIEWER until the service retires it)');
  });

  it('resolves transfer targets and refuses a target that is not active or not found', async () => {
    const result = await plan(
      'email,action,transferTo\njordan.lee@acme.example,remove,dana.whitfield@acme.example\npriya.shah@acme.example,remove,taylor.brooks@acme.example\nmarcus.chen@acme.example,remove,nobody@acme.example\n',
    );
    expect(result.rows.at(0)).toMatchObject({ verdict: 'change', target: { transferToUserId: expect.any(Number) } });
    expect(brief(result.rows.at(1)).slice(0, 2)).toEqual(['refused', 'transfer-target-invalid']);
    expect(result.rows.at(2)?.reason).toBe('transfer target nobody@acme.example is not a user of the organization');
  });

  it('removes without a transfer target only when the user is known to own no group, saying the sheets stay', async () => {
    const csv = 'email,action,transferTo,transferSheets\njordan.lee@acme.example,remove,,\npriya.shah@acme.example,remove,,\nmarcus.chen@acme.example,remove,riley.owens@acme.example,true\nelena.garcia@acme.example,remove,dana.whitfield@acme.example,true\n';
    const manifest = await loadManifest({ path: '/data/m.csv', content: csv });
    const org = demoOrg(0);
    const id = (email: string) => org.users.find((u) => u.email === email)!.id;
    // A service that lists groups on GET /users/{id}: priya owns one, jordan none.
    const listed = await preflight(manifest, { api: createFakeApi({ ...org, groups: [{ id: 77, name: 'Data', ownerId: id('priya.shah@acme.example') }] }) });
    expect([...listed.rows].map(brief)).toEqual([
      ['change', undefined, 'no transfer target: sheets stay with the removed user'],
      ['refused', 'owns-groups-without-transferTo', 'owns 1 group(s) and has no transfer target: name one who is a group admin'],
      ['change', undefined, 'riley.owens@acme.example is a Provisional Member: upgrade it to MEMBER, or what it receives goes to a free seat at the end of its review period'],
      ['change', undefined, undefined],
    ]);
    // One that does not (include=groups is documented for /users/me only): unknown, so a removal without a target is
    // refused, and the target who is not a group admin is planned with a note. One call learns it, not one per row.
    const { api, calls } = countCalls(createFakeApi(org));
    const unlisted = await preflight(manifest, { api });
    expect([...unlisted.rows].map((r) => [r.verdict, r.rule])).toEqual([
      ['refused', 'group-ownership-unknown'],
      ['refused', 'group-ownership-unknown'],
      ['change', undefined],
      ['change', undefined],
    ]);
    expect(unlisted.rows.at(2)?.reason).toMatch(/group ownership unknown .* riley.owens@acme.example not being a group admin \(1107\)/);
    expect(calls()).toBe(unlisted.apiCalls);
    const withoutGroupReads = await preflight(await loadManifest({ path: '/data/m.csv', content: 'email,action,transferTo\nelena.garcia@acme.example,remove,dana.whitfield@acme.example\n' }), { api: createFakeApi(org) });
    // getCurrent + one email= listing + the one group read that told the service does not list groups.
    expect(unlisted.apiCalls - withoutGroupReads.apiCalls).toBe(1);
  });

  it('refuses a transfer target on a free seat, whatever licensedSheetCreator says', async () => {
    const result = await plan('email,action,transferTo,transferSheets\njordan.lee@acme.example,remove,riley.owens@acme.example,true\npriya.shah@acme.example,remove,jamie.fox@partner.example,true\n');
    expect([...result.rows].map((r) => [r.verdict, r.rule])).toEqual([
      ['change', undefined],
      ['refused', 'transfer-target-invalid'],
    ]);
    expect(result.rows.at(1)?.reason).toBe('transfer target jamie.fox@partner.example is not licensed (a GUEST seat: cannot own sheets)');
  });

  it('classifies seat rows: eligibility, admin, no-op, ambiguous plan, explicit plan', async () => {
    const result = await plan(
      'email,action,seatType,removeAdminStatus,planId\nriley.owens@acme.example,downgrade,VIEWER,,\nelena.garcia@acme.example,downgrade,VIEWER,,\ncasey.nguyen@acme.example,downgrade,VIEWER,,\nnoah.fischer@acme.example,downgrade,VIEWER,,\njordan.lee@acme.example,downgrade,GUEST,,5420192837465013\ntaylor.brooks@acme.example,downgrade,VIEWER,,\njamie.fox@partner.example,upgrade,MEMBER,,\nchris.morgan@acme.example,upgrade,GUEST,,\ndana.whitfield@acme.example,remove-from-plan,,,5420192837465013\nmarcus.chen@acme.example,downgrade,GUEST,true,\n',
    );
    expect([...result.rows].map((r) => [r.verdict, r.rule ?? ''])).toEqual([
      ['change', ''],
      ['refused', 'admin-without-removeAdminStatus'],
      ['no-op', ''],
      ['refused', 'plan-ambiguous'],
      ['not-found', ''],
      ['refused', 'status-not-eligible'],
      ['change', ''],
      ['refused', 'seat-not-eligible'],
      ['no-op', ''],
      // GUEST is a downgrade for external users only (docs/service.md#downgrade-and-upgrade).
      ['refused', 'guest-for-internal-user'],
    ]);
    expect(result.rows.at(0)?.target.planId).toBe(5420192837465012);
  });

  it('refuses GUEST as an upgrade for an internal user, as the service does, and plans it for an external one', async () => {
    const result = await plan('email,action,seatType\ncasey.nguyen@acme.example,upgrade,GUEST\nlee.park@partner.example,upgrade,GUEST\nriley.owens@acme.example,upgrade,MEMBER\n');
    expect([...result.rows].map((r) => [r.verdict, r.rule ?? ''])).toEqual([
      ['refused', 'guest-for-internal-user'],
      ['change', ''],
      ['change', ''],
    ]);
  });

  it('classifies alternate e-mail rows; deleting an address the user does not have is refused, not a no-op', async () => {
    const result = await plan(
      'email,action,alternateEmail\nchris.morgan@acme.example,make-alternate-email-primary,chris.m@acme.example\nchris.morgan@acme.example,add-alternate-email,new@acme.example\njordan.lee@acme.example,add-alternate-email,dana.whitfield@acme.example\nmarcus.chen@acme.example,make-alternate-email-primary,marcus.chen@acme.example\njordan.lee@acme.example,delete-alternate-email,none@acme.example\n',
    );
    expect([...result.rows].map((r) => [r.verdict, r.rule ?? ''])).toEqual([
      ['change', ''],
      ['change', ''],
      ['conflict', 'already-exists'],
      ['no-op', ''],
      ['refused', 'not-an-alternate-email'],
    ]);
    expect(result.rows.at(0)?.target.alternateEmailId).toBe(9001);
    expect(result.rows.at(4)?.reason).toBe('none@acme.example is not an alternate e-mail of this user');
  });

  it('classifies add and update rows', async () => {
    const result = await plan('email,action,firstName\nnew.hire@acme.example,add,New\njordan.lee@acme.example,add,\nmarcus.chen@acme.example,update,Marcus\npriya.shah@acme.example,update,Priya\n');
    expect([...result.rows].map((r) => r.verdict)).toEqual(['change', 'no-op', 'no-op', 'change']);
  });

  it('classifies column, discussion and webhook rows', async () => {
    const json = JSON.stringify({
      version: 1,
      rows: [
        { action: 'add-column', sheetId: 2094857361029384, title: 'Assigned On', type: 'DATE', index: 4 },
        { action: 'add-column', sheetId: 2094857361029384, title: 'status', type: 'TEXT_NUMBER', index: 4 },
        { action: 'update-column', sheetId: 2094857361029384, columnTitle: 'Asset Tag', type: 'DATE' },
        { action: 'update-column', sheetId: 2094857361029384, columnTitle: 'Owner', type: 'CONTACT_LIST' },
        { action: 'update-column', sheetId: 2094857361029384, columnId: 4, type: 'TEXT_NUMBER' },
        { action: 'delete-column', sheetId: 2094857361029384, columnTitle: 'Gone' },
        { action: 'create-discussion', sheetId: 1, comment: 'hi' },
        { action: 'enable-webhook', webhookId: 501 },
        { action: 'enable-webhook', webhookId: 502 },
        { action: 'enable-webhook', webhookId: 503 },
        { action: 'delete-webhook', webhookId: 999 },
      ],
    });
    const result = await plan(json, { file: '/data/m.json' });
    expect([...result.rows].map((r) => [r.verdict, r.rule ?? ''])).toEqual([
      ['change', ''],
      ['conflict', 'already-exists'],
      ['refused', 'primary-column'],
      ['no-op', ''],
      ['change', ''],
      ['no-op', ''],
      ['not-found', 'sheet-not-found'],
      ['no-op', ''],
      ['change', ''],
      ['refused', 'webhook-terminal-status'],
      ['not-found', 'webhook-not-visible'],
    ]);
    expect(result.rows.at(4)?.reason).toMatch(/Gantt\/calendar column/);
  });

  it('refuses a column index beyond the sheet (1031) and a rename to a title another column has (1056)', async () => {
    const sheetId = 2094857361029384;
    const json = JSON.stringify({
      version: 1,
      rows: [
        { action: 'add-column', sheetId, title: 'Last', type: 'TEXT_NUMBER', index: 4 },
        { action: 'add-column', sheetId, title: 'Too Far', type: 'TEXT_NUMBER', index: 5 },
        { action: 'update-column', sheetId, columnTitle: 'Owner', title: 'status' },
        { action: 'update-column', sheetId, columnTitle: 'Start', title: 'Begins' },
        { action: 'update-column', sheetId, columnTitle: 'Status', index: 4 },
      ],
    });
    const result = await plan(json, { file: '/data/m.json' });
    expect([...result.rows].map((r) => [r.verdict, r.rule ?? ''])).toEqual([
      ['change', ''],
      ['refused', 'column-index-out-of-range'],
      ['refused', 'column-title-taken'],
      ['change', ''],
      ['refused', 'column-index-out-of-range'],
    ]);
    expect(result.rows.at(1)?.reason).toBe("index 5 is beyond the sheet's columns: the highest index here is 4 (1031)");
    expect(result.rows.at(2)?.reason).toBe('another column of the sheet is already titled "Status"; titles are unique (1056)');
  });

  it('marks rows that name one user by e-mail and by id as a conflict once resolved', async () => {
    const org = demoOrg();
    const jordan = org.users.find((u) => u.email === 'jordan.lee@acme.example')!;
    const manifest = await loadManifest({ path: '/data/m.csv', content: `email,userId,action\njordan.lee@acme.example,,deactivate\n,${jordan.id},reactivate\n` });
    const result = await preflight(manifest, { api: createFakeApi(org) });
    expect(result.rows.at(1)).toMatchObject({ verdict: 'conflict', rule: 'contradictory-actions' });
  });

  it('refuses protected accounts after resolving them', async () => {
    // Named by e-mail, the validator refuses it (see load-manifest tests); named by id, only the pre-flight can.
    const org = demoOrg();
    const dana = org.users.find((u) => u.email.startsWith('dana'))!;
    const manifest = await loadManifest({ path: '/data/m.csv', content: `userId,action\n${dana.id},deactivate\n` });
    const planned = await preflight(manifest, { api: createFakeApi(org), protectedAccounts: ['DANA.WHITFIELD@acme.example'] });
    expect(planned.rows.at(0)).toMatchObject({ verdict: 'refused', rule: 'protected-account' });
  });

  it('reports invalid rows as verdict invalid when they are skipped', async () => {
    const manifest = await loadManifest({ path: '/data/m.csv', content: 'email,action\nmarcus.chen@acme.example,deactivate\nbad,deactivate\n' });
    const result = await preflight(manifest, { api: createFakeApi(demoOrg()) });
    expect(result.rows.at(1)).toMatchObject({ verdict: 'invalid', actionName: 'deactivate', reason: 'email: "bad" is not a valid e-mail address' });
    expect(result.summary.invalid).toBe(1);
  });

  it('uses email batches for a few rows and counts every call', async () => {
    const result = await plan('email,action\nmarcus.chen@acme.example,deactivate\n');
    // users.me, one email batch, one page for the organization's size (share guardrail)
    expect(result.apiCalls).toBe(3);
    expect(result.organizationUsers).toBe(15);
  });

  it('pre-flights 10,000 rows with a full listing in a handful of calls, never asking for more than 2000 users a page', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `user.${i}@acme.example,deactivate`).join('\n');
    const manifest = await loadManifest({ path: '/data/m.csv', content: `email,action\n${rows}\n` });
    const org = demoOrg(12_000);
    const result = await preflight(manifest, { api: createFakeApi(org) });
    expect(result.summary.change).toBe(10_000);
    // who-am-I and one page per 2000 users (docs/service.md#paging-list-users).
    expect(result.apiCalls).toBe(1 + Math.ceil(org.users.length / 2000));
    expect(org.listCalls?.every((call) => (call.pageSize ?? 100) <= 2000)).toBe(true);
  });

  it('lets the event loop turn while it reads and classifies a large manifest (a server answers others meanwhile)', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `user.${i}@acme.example,deactivate`).join('\n');
    const manifest = await loadManifest({ path: '/data/m.csv', content: `email,action\n${rows}\n` });
    // The fake service answers at once (promises only): without turns of its own, nothing else would run until the end.
    let turns = 0;
    let planning = true;
    const count = () => {
      if (!planning) return;
      turns += 1;
      setImmediate(count);
    };
    setImmediate(count);
    await preflight(manifest, { api: createFakeApi(demoOrg(12_000)) });
    planning = false;
    // Two passes over 10,000 rows, a turn every 2,048 rows of each.
    expect(turns).toBeGreaterThanOrEqual(8);
  });

  it('counts calls through a wrapper around any SmartsheetApi', async () => {
    const { api, calls } = countCalls(createFakeApi(demoOrg()));
    await api.users.getCurrent();
    await api.users.listPage({ pageSize: 1 });
    expect(calls()).toBe(2);
  });
});
