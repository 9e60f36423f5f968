import { afterEach, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import { DEMO } from '../../../src/server/demo/demo-organization.js';
import type { PlanSeat, UserRecord } from '../../../src/server/state/records.js';
import { startReferenceServer, type RunningReferenceServer } from '../../../src/server/start-reference-server.js';
import { openLiveOrganization, type LiveOrganization } from '../../../src/sync/live-organization.js';
import type { LiveReadNeeds } from '../../../src/sync/live-read-plan.js';
import type { LiveUser } from '../../../src/sync/live-user.js';

// The demo organization: 250 generated users and the 17 story users, all in the main plan; 1 in 25 also in Acme Labs.
const DEFAULT_NEEDS: LiveReadNeeds = { seats: true, lastLogin: true, alternateEmails: false, groupsOwned: true };
let server: RunningReferenceServer;
let client: SmartsheetClient;
/** Every HTTP call the client made. */
let httpCalls: string[];

async function start(): Promise<void> {
  server = await startReferenceServer({ rateLimit: 'off', users: 250 });
  httpCalls = [];
  client = createSmartsheetClient({ baseUrl: server.url, accessToken: server.tokens.admin, beforeRequest: async (info) => void httpCalls.push(info.operation) });
}
afterEach(async () => {
  await client.close();
  await server.close();
});

const record = (email: string): UserRecord => [...server.context.state.users.values()].find((user) => user.email === email)!;
const orgSize = () => [...server.context.state.users.values()].filter((user) => user.inOrg).length;
const listUsersPageSizes = () => server.requests.list({ operation: 'listUsers' }).map((entry) => Number(entry.query.pageSize));

async function readAll(live: LiveOrganization): Promise<LiveUser[]> {
  const users: LiveUser[] = [];
  for await (const user of live.users()) users.push(user);
  return users;
}

describe('openLiveOrganization', () => {
  it('streams every user once with status, flags, the seat of the plan that holds everyone and lastLogin, in exactly the calls it planned', async () => {
    await start();
    const live = await openLiveOrganization(client, { needs: DEFAULT_NEEDS });
    expect(live.plan.primary).toEqual({ planId: DEMO.planId, pageSize: 100, calls: Math.ceil(orgSize() / 100) });
    const users = await readAll(live);
    expect(users).toHaveLength(orgSize());
    expect(new Set(users.map((user) => user.id)).size).toBe(users.length);
    expect(httpCalls).toHaveLength(live.plan.calls);
    expect(live.calls()).toBe(live.plan.calls);
    // The counts are read a user a page; every page of users is 100, where lastLogin comes.
    expect(listUsersPageSizes().filter((size) => size !== 1).every((size) => size === 100)).toBe(true);
    const admin = users.find((user) => user.email === 'admin@acme.example')!;
    expect(admin).toMatchObject({ status: 'ACTIVE', admin: true, groupAdmin: true, resourceViewer: true, groupsOwned: [{ name: 'IT Admins' }] });
    expect(admin.seats).toEqual([expect.objectContaining({ planId: DEMO.planId, seatType: 'MEMBER', isInternal: true })]);
    expect(admin.lastLogin).toBeDefined();
    // Priya owns Data Platform, but another user's groups are not readable (docs/service.md#get-user).
    expect(users.find((user) => user.email === 'priya.shah@acme.example')!.groupsOwned).toBe('unknown');
    const neverLoggedIn = users.find((user) => user.email === 'pat.quinn@acme.example')!;
    expect(neverLoggedIn.status).toBe('PENDING');
    expect(neverLoggedIn).not.toHaveProperty('lastLogin');
    expect(users.find((user) => user.email === 'riley.owens@acme.example')!.seats[0]).toMatchObject({ seatType: 'PROVISIONAL_MEMBER', provisionalExpirationDate: expect.any(String) });
    expect(live.outcome()).toEqual({ expected: orgSize(), read: orgSize(), left: 0, changedDuringRead: false });
  });

  it('joins a second plan looked up by e-mail when it may not be held in memory, still in the calls it planned (a plan named twice is read once)', async () => {
    await start();
    const live = await openLiveOrganization(client, { needs: DEFAULT_NEEDS, planIds: [DEMO.planId, DEMO.labsPlanId, DEMO.labsPlanId], preloadSeats: 0 });
    expect(live.plan.secondary).toEqual([expect.objectContaining({ planId: DEMO.labsPlanId, how: 'lookup', calls: Math.ceil(orgSize() / 100) })]);
    const users = await readAll(live);
    expect(httpCalls).toHaveLength(live.plan.calls);
    expect(users.find((user) => user.email === 'noah.fischer@acme.example')!.seats.map((seat) => seat.planId)).toEqual([DEMO.planId, DEMO.labsPlanId]);
    const inLabs = [...server.context.state.users.values()].filter((user) => user.seats.some((seat) => seat.planId === DEMO.labsPlanId)).length;
    expect(users.filter((user) => user.seats.length === 2)).toHaveLength(inLabs);
  });

  it('lists the organization when a user holds no seat in the plan, so that user is exported too, with no seat', async () => {
    await start();
    record('jordan.lee@acme.example').seats = [];
    for (const preloadSeats of [20_000, 0]) {
      httpCalls = [];
      const live = await openLiveOrganization(client, { needs: DEFAULT_NEEDS, preloadSeats });
      expect(live.plan.primary.planId).toBeUndefined();
      expect(live.plan.secondary).toEqual([expect.objectContaining({ planId: DEMO.planId, how: preloadSeats === 0 ? 'lookup' : 'preload' })]);
      const users = await readAll(live);
      expect(users).toHaveLength(orgSize());
      expect(users.find((user) => user.email === 'jordan.lee@acme.example')!.seats).toEqual([]);
      expect(users.filter((user) => user.seats.length === 1)).toHaveLength(orgSize() - 1);
      expect(users.find((user) => user.email === 'marcus.chen@acme.example')!.lastLogin).toBeDefined();
      expect(httpCalls).toHaveLength(live.plan.calls);
    }
  });

  it('reads alternate e-mails and lastLogin with one call per user, and leaves out a user gone before their call', async () => {
    await start();
    const gone = record('sam.taylor@gmail.com').id;
    // The user leaves between the listing and their own call: the service then answers 404.
    const api: SmartsheetApi = {
      ...client,
      users: { ...client.users, get: async (id, options) => (id === gone ? Promise.reject(Object.assign(new Error('Not Found'), { status: 404 })) : client.users.get(id, options)) },
    };
    const live = await openLiveOrganization(api, { needs: { ...DEFAULT_NEEDS, alternateEmails: true } });
    expect(live.plan).toMatchObject({ perUserCalls: orgSize(), lastLoginFrom: 'per-user', primary: { pageSize: 2000, calls: 1 } });
    const users = await readAll(live);
    expect(users).toHaveLength(orgSize() - 1);
    expect(users.find((user) => user.id === gone)).toBeUndefined();
    expect(users.find((user) => user.email === 'chris.morgan@acme.example')!.alternateEmails).toEqual([expect.objectContaining({ email: 'chris.m@acme.example' })]);
    expect(users.find((user) => user.email === 'marcus.chen@acme.example')).toMatchObject({ alternateEmails: [], lastLogin: expect.any(String) });
    expect(live.outcome()).toMatchObject({ read: orgSize() - 1, left: 1, changedDuringRead: false });
    expect(live.calls()).toBe(live.plan.calls);
  });

  it('reads a seat type it does not know leniently: the page is read, the value kept on that seat', async () => {
    await start();
    record('casey.nguyen@acme.example').seats[0]!.seatType = 'SUPER_SEAT' as PlanSeat['seatType'];
    const users = await readAll(await openLiveOrganization(client, { needs: DEFAULT_NEEDS }));
    expect(users).toHaveLength(orgSize());
    const casey = users.find((user) => user.email === 'casey.nguyen@acme.example')!;
    expect(casey.seats).toEqual([expect.objectContaining({ planId: DEMO.planId, unrecognized: [{ field: 'seatType', value: 'SUPER_SEAT' }] })]);
    expect(casey.seats[0]!.seatType).toBeUndefined();
    expect(casey.status).toBe('ACTIVE');
  });

  it('says when the organization changed while it was read', async () => {
    await start();
    const live = await openLiveOrganization(client, { needs: { seats: false, lastLogin: false, alternateEmails: false, groupsOwned: false } });
    expect(live.plan).toMatchObject({ primary: { pageSize: 2000, calls: 1 }, secondary: [], probeCalls: 2 });
    await client.users.add({ email: 'late.joiner@acme.example' });
    const users = await readAll(live);
    expect(users.map((user) => user.email)).toContain('late.joiner@acme.example');
    expect(live.outcome()).toMatchObject({ expected: orgSize() - 1, read: orgSize(), changedDuringRead: true });
  });
});
