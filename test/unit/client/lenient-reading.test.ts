import { afterEach, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import { InvalidRequestError } from '../../../src/client/api-error.js';
import { collect } from '../../helpers/collect.js';
import { startStubHttpServer, type StubAnswer, type StubHttpServer } from '../../helpers/stub-http-server.js';

let server: StubHttpServer | undefined;
let client: SmartsheetClient | undefined;

async function setup(answer: (url: string, index: number) => StubAnswer): Promise<SmartsheetClient> {
  server = await startStubHttpServer((request, index) => answer(request.url, index));
  client = createSmartsheetClient({ baseUrl: server.url, accessToken: 'token-for-lenient-tests' });
  return client;
}

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('reading leniently (docs/service.md#reading-leniently)', () => {
  it('reads a page whose one user has a seat type and a status of tomorrow, flagging only that user', async () => {
    const api = await setup(() => ({
      body: {
        pageNumber: 1, pageSize: 100, totalPages: 1, totalCount: 3,
        data: [
          { id: 1000000000000001, email: 'a@acme.example', status: 'ACTIVE', seatType: 'MEMBER', isInternal: true },
          { id: 1000000000000002, email: 'b@acme.example', status: 'ON_LEAVE', seatType: 'SUPER_SEAT', isInternal: null },
          { id: 1000000000000003, email: 'c@acme.example', status: 'ACTIVE', seatType: 'CONTRIBUTOR', isInternal: false },
        ],
      },
    }));
    const page = await api.users.listPage();
    expect(page.data.map((user) => [user.email, user.status, user.seatType, user.isInternal])).toEqual([
      ['a@acme.example', 'ACTIVE', 'MEMBER', true],
      ['b@acme.example', undefined, undefined, undefined],
      ['c@acme.example', 'ACTIVE', 'CONTRIBUTOR', false],
    ]);
    expect(page.data[1]?.unrecognized).toEqual([{ field: 'status', value: 'ON_LEAVE' }, { field: 'seatType', value: 'SUPER_SEAT' }]);
    expect(page.data[0]).not.toHaveProperty('unrecognized');
  });

  it('reads plans with planName null, isInternal null and a new seat type', async () => {
    const api = await setup(() => ({ body: { data: [{ planId: 5420192837465012, planName: null, seatType: 'NEW_SEAT', isInternal: null }] } }));
    const plans = (await api.users.listPlansPage(1000000000000001)).data;
    expect(plans[0]).toEqual({ planId: 5420192837465012, unrecognized: [{ field: 'seatType', value: 'NEW_SEAT' }] });
  });

  it('follows an empty page that still carries a lastKey', async () => {
    const api = await setup((_url, index) =>
      index === 0 ? { body: { lastKey: 'next', data: [] } } : { body: { data: [{ planId: 5420192837465012, seatType: 'MEMBER' }] } },
    );
    const plans = await collect(api.users.listPlans(1000000000000001));
    expect(plans.map((plan) => plan.planId)).toEqual([5420192837465012]);
  });

  it('reads an error body without refId', async () => {
    const api = await setup(() => ({ status: 400, body: { errorCode: 1229, message: 'pageSize too large' } }));
    const error = await api.users.listPage({ pageSize: 10 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, errorCode: 1229, refId: undefined });
  });
});
