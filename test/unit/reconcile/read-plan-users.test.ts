import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import type { ListUsersOptions, SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import { readPlanUsers } from '../../../src/reconcile/read-plan-users.js';
import { startReferenceServer, type RunningReferenceServer } from '../../../src/server/index.js';
import { DEMO } from '../../../src/server/demo/demo-organization.js';

let server: RunningReferenceServer;
let api: SmartsheetClient;
/** Every HTTP call the client made, by operation. */
const calls: string[] = [];
/** What each list-users call asked for. */
const listed: ListUsersOptions[] = [];

function recording(inner: SmartsheetApi): SmartsheetApi {
  return { ...inner, users: { ...inner.users, listPage: (options) => (listed.push(options ?? {}), inner.users.listPage(options)), getCurrent: (o) => inner.users.getCurrent(o), listPlansPage: (id, o) => inner.users.listPlansPage(id, o) } };
}

beforeAll(async () => {
  server = await startReferenceServer({ rateLimit: 'off', users: 250 });
  api = createSmartsheetClient({
    baseUrl: server.url,
    accessToken: server.tokens.admin,
    beforeRequest: async (info) => {
      calls.push(info.operation);
    },
  });
});
afterAll(async () => {
  await api.close();
  await server.close();
});

describe('readPlanUsers', () => {
  it('reads every user of the plan with lastLogin, one call per 100 users', async () => {
    calls.length = 0;
    listed.length = 0;
    const live = await readPlanUsers(recording(api), DEMO.planId);
    const inPlan = [...server.context.state.users.values()].filter((u) => u.inOrg && u.seats.some((s) => s.planId === DEMO.planId)).length;
    expect(live.users).toHaveLength(inPlan);
    expect(inPlan).toBeGreaterThan(200);
    expect(calls.filter((operation) => operation === 'users.list')).toHaveLength(Math.ceil(inPlan / 100));
    expect(calls).toHaveLength(Math.ceil(inPlan / 100) + 1);
    expect(listed.every((options) => options.pageSize === 100 && options.include?.includes('lastLogin') === true && options.planId === DEMO.planId)).toBe(true);
    expect(live.apiCalls).toBe(calls.length);
    expect(live.users.every((u) => u.seatType !== undefined)).toBe(true);
    // The demo organization has recent, stale and never-logged-in users for policies to find.
    const ages = live.users.map((u) => (u.lastLogin === undefined ? Infinity : (server.context.clock.now() - Date.parse(String(u.lastLogin))) / 86_400_000));
    expect(ages.some((days) => days < 30)).toBe(true);
    expect(ages.some((days) => days > 90 && days !== Infinity)).toBe(true);
    expect(ages.some((days) => days === Infinity)).toBe(true);
  });

  it('takes the only plan of the caller when the policy names none, and refuses when there are several', async () => {
    const live = await readPlanUsers(api, undefined);
    expect(live.planId).toBe(DEMO.planId);
    const noah = [...server.context.state.users.values()].find((u) => u.email === 'noah.fischer@acme.example')!;
    const { getCurrent } = api.users;
    const asNoah = { ...api, users: { ...api.users, getCurrent: async () => ({ ...(await getCurrent.call(api.users)), id: noah.id }) } };
    await expect(readPlanUsers(asNoah, undefined)).rejects.toThrow(/2 plans/);
  });

  it('finds the only plan past an empty first page that still carries a lastKey (docs/service.md#reading-leniently)', async () => {
    const pages = [{ lastKey: 'k1', data: [] }, { data: [{ planId: DEMO.planId }] }];
    const fake = {
      users: {
        getCurrent: async () => ({ id: 1000000000000001, email: 'admin@acme.example' }),
        listPlansPage: async () => pages.shift() ?? { data: [] },
        listPage: async () => ({ pageNumber: 1, pageSize: 100, totalPages: 0, totalCount: 0, data: [] }),
      },
      alternateEmails: {},
      discussions: {},
      columns: {},
      webhooks: {},
      sheets: {},
    } as unknown as SmartsheetApi;
    expect((await readPlanUsers(fake, undefined)).planId).toBe(DEMO.planId);
  });
});
