import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ResourceNotFoundError } from '../../src/client/api-error.js';
import { startContractServer, type ContractServer } from '../helpers/contract-server.js';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

let s: ContractServer;
beforeAll(async () => {
  s = await startContractServer();
});
afterAll(async () => {
  await s.close();
});
beforeEach(() => {
  s.sim.controls.reset();
});

describe('alternateEmails (contract)', () => {
  it('adds a list and gets a list back', async () => {
    const marcus = await s.userId('marcus.chen@acme.example');
    const added = await s.admin.alternateEmails.add(marcus, ['marcus.c@acme.example', 'mchen@acme.example']);
    expect(added.map((alt) => alt.email)).toEqual(['marcus.c@acme.example', 'mchen@acme.example']);
    expect(added.every((alt) => Number.isSafeInteger(alt.id))).toBe(true);
  });

  it('lists, iterating over pages of one', async () => {
    const marcus = await s.userId('marcus.chen@acme.example');
    await s.admin.alternateEmails.add(marcus, ['marcus.c@acme.example', 'mchen@acme.example', 'm.chen@acme.example']);
    const first = await s.admin.alternateEmails.listPage(marcus, { pageSize: 1 });
    expect(first.totalPages).toBe(3);
    const all = await collect(s.admin.alternateEmails.list(marcus, { pageSize: 1 }));
    expect(all.map((alt) => alt.email).sort()).toEqual(['m.chen@acme.example', 'marcus.c@acme.example', 'mchen@acme.example']);
  });

  it('gets one, and answers not found for one that does not exist', async () => {
    const chris = await s.userId('chris.morgan@acme.example');
    const [existing] = (await s.admin.alternateEmails.listPage(chris)).data;
    expect(await s.admin.alternateEmails.get(chris, existing!.id)).toEqual({ id: existing!.id, email: 'chris.m@acme.example', confirmed: true });
    await expect(s.admin.alternateEmails.get(chris, 1234567890123456)).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it('makes a confirmed alternate primary', async () => {
    const chris = await s.userId('chris.morgan@acme.example');
    const [existing] = (await s.admin.alternateEmails.listPage(chris)).data;
    const promoted = await s.admin.alternateEmails.makePrimary(chris, existing!.id);
    expect(promoted.email).toBe('chris.m@acme.example');
    expect((await s.admin.users.get(chris)).email).toBe('chris.m@acme.example');
  });

  it('deletes one', async () => {
    const chris = await s.userId('chris.morgan@acme.example');
    const [existing] = (await s.admin.alternateEmails.listPage(chris)).data;
    await s.admin.alternateEmails.delete(chris, existing!.id);
    expect((await s.admin.alternateEmails.listPage(chris)).data).toEqual([]);
  });
});
