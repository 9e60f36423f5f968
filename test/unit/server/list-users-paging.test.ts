import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer } from './sim-client.js';

// 2,500 generated users: more than one page of 2000.
const server = createTestServer({ users: 2500 });
afterAll(() => server.app.close());

type Page = { pageNumber: number; pageSize?: number; totalPages: number; totalCount: number; data: unknown[] };

describe('GET /users pages at most 2000 users (docs/service.md#paging-list-users)', () => {
  it('refuses a pageSize above 2000 with 400 1229', async () => {
    const res = await server.call('GET', '/2.0/users?pageSize=2001');
    expect([res.status, res.body.errorCode]).toEqual([400, 1229]);
    expect(typeof res.body.refId).toBe('string');
  });

  it('answers a pageSize of exactly 2000', async () => {
    const res = await server.call('GET', '/2.0/users?pageSize=2000&page=2');
    const page = res.body as unknown as Page;
    expect(res.status).toBe(200);
    expect([page.pageNumber, page.pageSize, page.data.length]).toEqual([2, 2000, page.totalCount - 2000]);
  });

  it('answers includeAll=true with page 1 of 2000, not everything', async () => {
    const res = await server.call('GET', '/2.0/users?includeAll=true');
    const page = res.body as unknown as Page;
    expect(page.totalCount).toBeGreaterThan(2000);
    expect([page.pageNumber, page.pageSize, page.data.length, page.totalPages]).toEqual([1, 2000, 2000, 2]);
  });

  it('answers includeAll=true&page=2 with page 1 too: includeAll is not a way around the cap', async () => {
    const page = (await server.call('GET', '/2.0/users?includeAll=true&page=2')).body as unknown as Page;
    expect(page.pageNumber).toBe(1);
  });

  it('refuses a pageSize above 2000 even with includeAll', async () => {
    const res = await server.call('GET', '/2.0/users?includeAll=true&pageSize=10000');
    expect([res.status, res.body.errorCode]).toEqual([400, 1229]);
  });

  it('keeps other lists uncapped (columns take includeAll as before)', async () => {
    const webhooks = await server.call('GET', '/2.0/webhooks?pageSize=5000');
    expect(webhooks.status).toBe(200);
  });
});
