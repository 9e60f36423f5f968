import { describe, expect, it } from 'vitest';
import { InvalidRequestError, ResourceNotFoundError } from '../../src/client/api-error.js';
import type { SmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { collect } from '../helpers/collect.js';
import { useContractServer } from '../helpers/contract-server.js';

const IT_ASSETS = 2094857361029384;
const APOLLO = 2094857361029385;

async function createHooks(client: SmartsheetClient, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const hook = await client.webhooks.create({
      name: `hook ${index}`,
      callbackUrl: `https://hooks.acme.example/${index}`,
      scope: 'sheet',
      scopeObjectId: index % 2 === 0 ? IT_ASSETS : APOLLO,
      events: ['*.*'],
      version: 1,
    });
    ids.push(hook.id);
  }
  return ids;
}

describe('webhooks before the list sunset (contract)', () => {
  const server = useContractServer({ webhookSunset: '2100-01-01T00:00:00Z' });

  it('raises InvalidRequest 400/1151 for an unknown scope object (docs/service.md#webhooks)', async () => {
    const refused = await server()
      .admin.webhooks.create({ name: 'x', callbackUrl: 'https://hooks.acme.example/x', scope: 'sheet', scopeObjectId: 1234567890123456, events: ['*.*'], version: 1 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused).toMatchObject({ status: 400, errorCode: 1151, retryable: false });
  });

  it('creates, gets, updates, resets the secret of, and deletes a webhook', async () => {
    const created = await server().admin.webhooks.create({
      name: 'Asset changes',
      callbackUrl: 'https://hooks.acme.example/assets',
      scope: 'sheet',
      scopeObjectId: IT_ASSETS,
      events: ['*.*'],
      version: 1,
      subscope: { columnIds: [] },
    });
    expect(created).toMatchObject({ name: 'Asset changes', scope: 'sheet', scopeObjectId: IT_ASSETS, enabled: false, status: 'NEW_NOT_VERIFIED' });
    expect(await server().admin.webhooks.get(created.id)).toMatchObject({ id: created.id, callbackUrl: 'https://hooks.acme.example/assets' });

    const renamed = await server().admin.webhooks.update(created.id, { name: 'Asset register changes' });
    expect(renamed.name).toBe('Asset register changes');

    const before = (await server().admin.webhooks.get(created.id)).sharedSecret;
    const { sharedSecret } = await server().admin.webhooks.resetSharedSecret(created.id);
    expect(sharedSecret).toMatch(/\S+/);
    expect(sharedSecret).not.toBe(before);

    await server().admin.webhooks.delete(created.id);
    await expect(server().admin.webhooks.get(created.id)).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it('iterates the offset-paged list over pages of two, and lists only the token owner\'s hooks', async () => {
    const ids = await createHooks(server().admin, 4);
    const first = await server().admin.webhooks.listPage({ pageSize: 2 });
    expect(first.totalPages).toBeGreaterThan(1);
    const all = await collect(server().admin.webhooks.list({ pageSize: 2 }));
    expect(all).toHaveLength(first.totalCount);
    expect(all.map((hook) => hook.id)).toEqual(expect.arrayContaining(ids));
    const appHooks = await collect(server().app.webhooks.list());
    expect(appHooks.some((hook) => ids.includes(hook.id))).toBe(false);
    expect(appHooks.length).toBeGreaterThan(0);
  });
});

describe('webhooks after the list sunset (contract)', () => {
  const server = useContractServer({ webhookSunset: '2020-01-01T00:00:00Z' });

  it('reads every page although totals are -1 and includeAll is ignored', async () => {
    const ids = await createHooks(server().admin, 5);
    const first = await server().admin.webhooks.listPage({ pageSize: 2 });
    expect(first).toMatchObject({ totalPages: -1, totalCount: -1 });
    const all = await collect(server().admin.webhooks.list({ pageSize: 2 }));
    expect(all.map((hook) => hook.id)).toEqual(expect.arrayContaining(ids));
    expect(new Set(all.map((hook) => hook.id)).size).toBe(all.length);
    // Newest first after the sunset.
    expect(all[0]?.id).toBe(ids[ids.length - 1]);
    const despiteIncludeAll = await collect(server().admin.webhooks.list({ includeAll: true, pageSize: 2 }));
    expect(despiteIncludeAll).toHaveLength(all.length);
  });
});

describe('sheets (contract)', () => {
  const server = useContractServer();

  it('lists the sheets over pages of one', async () => {
    const all = await collect(server().admin.sheets.list({ pageSize: 1 }));
    expect(all.map((sheet) => sheet.name)).toEqual(expect.arrayContaining(['IT Asset Register', 'Project Apollo']));
    expect(all.find((sheet) => sheet.name === 'IT Asset Register')?.id).toBe(IT_ASSETS);
  });
});
