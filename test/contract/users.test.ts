import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidRequestError } from '../../src/client/api-error.js';
import { collect } from '../helpers/collect.js';
import { useContractServer } from '../helpers/contract-server.js';

const PLAN = 5420192837465012;
const LABS_PLAN = 5420192837465013;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

const server = useContractServer();

describe('users (contract)', () => {
  it('adds a user with sendEmail and allowInviteAccountAdmin', async () => {
    const added = await server().admin.users.add(
      { email: 'new.hire@acme.example', firstName: 'New', lastName: 'Hire' },
      { sendEmail: true, allowInviteAccountAdmin: true },
    );
    expect(added).toMatchObject({ email: 'new.hire@acme.example', firstName: 'New', lastName: 'Hire' });
    expect(Number.isSafeInteger(added.id)).toBe(true);
    expect((await server().admin.users.get(added.id)).email).toBe('new.hire@acme.example');
  });

  it('lists users filtered by e-mail, with lastLogin', async () => {
    const page = await server().admin.users.listPage({ email: ['dana.whitfield@acme.example', 'jordan.lee@acme.example'], include: ['lastLogin'] });
    expect(page.data.map((user) => user.email).sort()).toEqual(['dana.whitfield@acme.example', 'jordan.lee@acme.example']);
    expect(page.data.every((user) => user.lastLogin !== undefined)).toBe(true);
  });

  it('iterates every user over several small pages', async () => {
    const first = await server().admin.users.listPage({ pageSize: 7 });
    expect(first.totalPages).toBeGreaterThan(1);
    const all = await collect(server().admin.users.list({ pageSize: 7 }));
    expect(all).toHaveLength(first.totalCount);
    expect(new Set(all.map((user) => user.id)).size).toBe(first.totalCount);
  });

  it('refuses includeAll and a pageSize above 2000 before sending (docs/service.md#paging-list-users)', async () => {
    const before = server().sim.requests.list().length;
    const includeAll = await server().admin.users.listPage({ includeAll: true } as never).catch((error: unknown) => error);
    expect(includeAll).toBeInstanceOf(InvalidArgumentError);
    const tooLarge = await server().admin.users.listPage({ pageSize: 2001 }).catch((error: unknown) => error);
    expect(tooLarge).toBeInstanceOf(InvalidArgumentError);
    expect(server().sim.requests.list().length).toBe(before);
    expect((await server().admin.users.listPage({ pageSize: 2000 })).pageSize).toBe(2000);
  });

  it('lists users by plan and seat type: past the sunset a VIEWER filter is sent as CONTRIBUTOR', async () => {
    const viewers = await collect(server().admin.users.list({ planId: PLAN, seatType: 'VIEWER' }));
    expect(viewers.map((user) => user.email)).toContain('casey.nguyen@acme.example');
    expect(viewers.every((user) => user.seatType === 'CONTRIBUTOR')).toBe(true);
  });

  it('gets the current user with groups, and a user by id', async () => {
    const me = await server().admin.users.getCurrent({ include: ['groups'] });
    expect(me.email).toBe('admin@acme.example');
    expect(me.groups?.length).toBeGreaterThan(0);
    const danaId = await server().userId('dana.whitfield@acme.example');
    expect(await server().admin.users.get(danaId)).toMatchObject({ id: danaId, email: 'dana.whitfield@acme.example', status: 'ACTIVE' });
  });

  it('reads lastLogin from GET /users/{id} without any include (docs/service.md#get-user)', async () => {
    const danaId = await server().userId('dana.whitfield@acme.example');
    expect(typeof (await server().admin.users.get(danaId)).lastLogin).toBe('string');
  });

  it('adds a user: a Provisional Member seat and licensedSheetCreator true, whatever was sent (docs/service.md#add-user)', async () => {
    const added = await server().admin.users.add({ email: 'new.hire@acme.example', licensedSheetCreator: false });
    expect(added).toMatchObject({ licensedSheetCreator: true, seatType: 'PROVISIONAL_MEMBER', isInternal: true });
    expect(typeof added.provisionalExpirationDate).toBe('string');
  });

  it('updates a user', async () => {
    const id = await server().userId('marcus.chen@acme.example');
    const updated = await server().admin.users.update(id, { firstName: 'Marc' });
    expect(updated).toMatchObject({ id, firstName: 'Marc' });
    expect((await server().admin.users.get(id)).firstName).toBe('Marc');
  });

  it('removes a user who owns groups with transferTo, transferSheets and removeFromSharing', async () => {
    const priya = await server().userId('priya.shah@acme.example');
    const dana = await server().userId('dana.whitfield@acme.example');
    const refused = await server().admin.users.remove(priya).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as InvalidRequestError).errorCode).toBe(1108);
    await server().admin.users.remove(priya, { transferTo: dana, transferSheets: true, removeFromSharing: true });
    const mutation = server().sim.mutations.list().find((entry) => entry.userId === priya);
    expect(mutation?.operation).toBe('removeUser');
  });

  it('deactivates and reactivates a user', async () => {
    const marcus = await server().userId('marcus.chen@acme.example');
    await server().admin.users.deactivate(marcus);
    expect((await server().admin.users.get(marcus)).status).toBe('DEACTIVATED');
    await server().admin.users.reactivate(marcus);
    expect((await server().admin.users.get(marcus)).status).toBe('ACTIVE');
  });

  it('downgrades an admin only with removeAdminStatus, and upgrades back', async () => {
    const elena = await server().userId('elena.garcia@acme.example');
    await expect(server().admin.users.downgrade(elena, PLAN, { seatType: 'VIEWER' })).rejects.toBeInstanceOf(InvalidRequestError);
    // The manifest's VIEWER goes out as CONTRIBUTOR past the sunset; the service would refuse VIEWER.
    await server().admin.users.downgrade(elena, PLAN, { seatType: 'VIEWER', removeAdminStatus: true });
    const after = await server().admin.users.get(elena);
    expect(after.admin).toBe(false);
    expect((await server().admin.users.listPlansPage(elena)).data[0]?.seatType).toBe('CONTRIBUTOR');
    await server().admin.users.upgrade(elena, PLAN);
    expect((await server().admin.users.listPlansPage(elena)).data[0]?.seatType).toBe('MEMBER');
  });

  it('upgrades an external CONTRIBUTOR to GUEST with an explicit seat type', async () => {
    const lee = await server().userId('lee.park@partner.example');
    await server().admin.users.upgrade(lee, PLAN, { seatType: 'GUEST' });
    expect((await server().admin.users.listPlansPage(lee)).data[0]?.seatType).toBe('GUEST');
  });

  it('reads plan names, and takes a maxItems below 100 as 100 (one page for two plans)', async () => {
    const noah = await server().userId('noah.fischer@acme.example');
    const first = await server().admin.users.listPlansPage(noah, { maxItems: 1, includePlanName: true });
    expect(first.data.map((plan) => [plan.planId, plan.planName])).toEqual([
      [PLAN, 'Acme Corp'],
      [LABS_PLAN, 'Acme Labs'],
    ]);
    expect(first.lastKey).toBeUndefined();
  });

  it('removes a user from a plan', async () => {
    const noah = await server().userId('noah.fischer@acme.example');
    await server().admin.users.removeFromPlan(noah, LABS_PLAN);
    expect((await collect(server().admin.users.listPlans(noah))).map((plan) => plan.planId)).toEqual([PLAN]);
  });

  it('uploads a profile image as raw bytes', async () => {
    const dana = await server().userId('dana.whitfield@acme.example');
    const updated = await server().admin.users.uploadProfileImage(dana, { data: PNG, fileName: 'dana.png' });
    expect(updated.id).toBe(dana);
    expect(updated.profileImage?.imageId).toBeTruthy();
  });
});
