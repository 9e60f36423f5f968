import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './sim-client.js';

describe('update user: licensedSheetCreator changes only for a System Admin (docs/service.md#update-user)', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());
  const licensed = (email: string) => sim.context.state.users.get(sim.userId(email))?.licensedSheetCreator;

  it('refuses to change licensedSheetCreator of a user who is not an admin with 403 9006, changing nothing', async () => {
    sim = createTestServer();
    const res = await sim.call('PUT', `/2.0/users/${sim.userId('marcus.chen@acme.example')}`, { body: { licensedSheetCreator: false, firstName: 'Marc' } });
    expect([res.status, res.body.errorCode]).toEqual([403, 9006]);
    expect(licensed('marcus.chen@acme.example')).toBe(true);
    expect(sim.context.state.users.get(sim.userId('marcus.chen@acme.example'))?.firstName).toBe('Marcus');
    expect(sim.mutations.size()).toBe(0);
  });

  it('changes licensedSheetCreator of a System Admin', async () => {
    sim = createTestServer();
    const res = await sim.call('PUT', `/2.0/users/${sim.userId('elena.garcia@acme.example')}`, { body: { licensedSheetCreator: false } });
    expect(res.status).toBe(200);
    expect(licensed('elena.garcia@acme.example')).toBe(false);
  });

  it('takes a row that makes the user an admin in the same call', async () => {
    sim = createTestServer();
    const res = await sim.call('PUT', `/2.0/users/${sim.userId('casey.nguyen@acme.example')}`, { body: { admin: true, licensedSheetCreator: true } });
    expect(res.status).toBe(200);
    expect(licensed('casey.nguyen@acme.example')).toBe(true);
  });

  it('answers a licensedSheetCreator that is already the user\'s value, admin or not', async () => {
    sim = createTestServer();
    const res = await sim.call('PUT', `/2.0/users/${sim.userId('marcus.chen@acme.example')}`, { body: { licensedSheetCreator: true, lastName: 'Chen-Li' } });
    expect(res.status).toBe(200);
  });
});
