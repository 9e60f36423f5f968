import { afterEach, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import { InvalidArgumentError } from '../../../src/client/api-error.js';
import { startStubHttpServer, type StubHttpServer } from '../../helpers/stub-http-server.js';

const BEFORE = Date.parse('2026-10-29T23:59:59Z');
const AFTER = Date.parse('2026-10-30T00:00:00Z');

describe('what the client sends for the retired VIEWER seat and for plan names', () => {
  let stub: StubHttpServer;
  let client: SmartsheetClient;
  afterEach(async () => {
    await client.close();
    await stub.close();
  });

  async function start(options: { now: number; viewerSunset?: string }) {
    stub = await startStubHttpServer((request) =>
      request.url.includes('/plans?') || request.url.endsWith('/plans')
        ? { body: { data: [] } }
        : request.method === 'GET'
          ? { body: { pageNumber: 1, pageSize: 100, totalPages: 1, totalCount: 0, data: [] } }
          : { body: { message: 'SUCCESS', resultCode: 0 } },
    );
    client = createSmartsheetClient({ baseUrl: stub.url, accessToken: 'token-123', now: () => options.now, ...(options.viewerSunset ? { viewerSunset: options.viewerSunset } : {}) });
  }
  const body = (index: number) => JSON.parse(stub.requests[index]?.body.toString('utf8') ?? '{}') as unknown;

  it.each(['VIEWER', 'CONTRIBUTOR'] as const)('sends CONTRIBUTOR for %s from the sunset on, in a downgrade and in the filter', async (seat) => {
    await start({ now: AFTER });
    await client.users.downgrade(1, 2, { seatType: seat });
    await client.users.listPage({ planId: 2, seatType: seat });
    expect(body(0)).toEqual({ seatType: 'CONTRIBUTOR' });
    expect(stub.requests[1]?.url).toContain('seatType=CONTRIBUTOR');
  });

  it.each(['VIEWER', 'CONTRIBUTOR'] as const)('sends VIEWER for %s before the sunset', async (seat) => {
    await start({ now: BEFORE });
    await client.users.downgrade(1, 2, { seatType: seat });
    expect(body(0)).toEqual({ seatType: 'VIEWER' });
  });

  it('follows a configured sunset date and leaves GUEST alone', async () => {
    await start({ now: AFTER, viewerSunset: '2027-06-01' });
    await client.users.downgrade(1, 2, { seatType: 'CONTRIBUTOR' });
    await client.users.downgrade(1, 2, { seatType: 'GUEST' });
    expect([body(0), body(1)]).toEqual([{ seatType: 'VIEWER' }, { seatType: 'GUEST' }]);
  });

  it('asks for plan names with include=planName and a maxItems of at least 100', async () => {
    await start({ now: AFTER });
    await client.users.listPlansPage(1, { includePlanName: true, maxItems: 10 });
    expect(stub.requests[0]?.url).toBe('/2.0/users/1/plans?maxItems=100&include=planName');
  });

  it('asks for sheet owners only with includeOwnerInfo', async () => {
    await start({ now: AFTER });
    await client.sheets.listPage();
    await client.sheets.listPage({ includeOwnerInfo: true });
    expect(stub.requests.map((r) => r.url)).toEqual(['/2.0/sheets', '/2.0/sheets?include=ownerInfo']);
  });
});

describe('createSmartsheetClient viewerSunset', () => {
  it('refuses a viewerSunset that is not a date', () => {
    expect(() => createSmartsheetClient({ accessToken: 't', viewerSunset: 'soon' })).toThrow(InvalidArgumentError);
  });
});
