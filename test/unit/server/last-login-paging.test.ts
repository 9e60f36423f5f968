import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer } from './sim-client.js';

const server = createTestServer({ users: 150 });
afterAll(() => server.app.close());

type Page = { data: { lastLogin?: string }[] };
const withLogin = (body: Record<string, unknown>) => (body as unknown as Page).data.filter((user) => user.lastLogin !== undefined).length;

describe('list users with include=lastLogin (docs/service.md#list-users)', () => {
  it('answers lastLogin on pages of up to 100 users', async () => {
    const { status, body } = await server.call('GET', '/2.0/users?include=lastLogin&pageSize=100');
    expect(status).toBe(200);
    expect(withLogin(body)).toBeGreaterThan(80);
  });

  it('leaves lastLogin out of larger pages, and of includeAll over more than 100 users', async () => {
    expect(withLogin((await server.call('GET', '/2.0/users?include=lastLogin&pageSize=101')).body)).toBe(0);
    expect(withLogin((await server.call('GET', '/2.0/users?include=lastLogin&includeAll=true')).body)).toBe(0);
  });

  it('answers it for includeAll when the whole answer is 100 users or fewer', async () => {
    const { body } = await server.call('GET', '/2.0/users?include=lastLogin&includeAll=true&email=dana.whitfield@acme.example');
    expect(withLogin(body)).toBe(1);
  });
});
