import { describe, expect, it } from 'vitest';
import { ResourceNotFoundError } from '../../src/client/api-error.js';
import { collect } from '../helpers/collect.js';
import { useContractServer } from '../helpers/contract-server.js';

const server = useContractServer();

describe('alternateEmails (contract)', () => {
  it('adds a list and gets a list back', async () => {
    const marcus = await server().userId('marcus.chen@acme.example');
    const added = await server().admin.alternateEmails.add(marcus, ['marcus.c@acme.example', 'mchen@acme.example']);
    expect(added.map((alt) => alt.email)).toEqual(['marcus.c@acme.example', 'mchen@acme.example']);
    expect(added.every((alt) => Number.isSafeInteger(alt.id))).toBe(true);
  });

  it('lists, iterating over pages of one', async () => {
    const marcus = await server().userId('marcus.chen@acme.example');
    await server().admin.alternateEmails.add(marcus, ['marcus.c@acme.example', 'mchen@acme.example', 'm.chen@acme.example']);
    const first = await server().admin.alternateEmails.listPage(marcus, { pageSize: 1 });
    expect(first.totalPages).toBe(3);
    const all = await collect(server().admin.alternateEmails.list(marcus, { pageSize: 1 }));
    expect(all.map((alt) => alt.email).sort()).toEqual(['m.chen@acme.example', 'marcus.c@acme.example', 'mchen@acme.example']);
  });

  it('gets one, and answers not found for one that does not exist', async () => {
    const chris = await server().userId('chris.morgan@acme.example');
    const [existing] = (await server().admin.alternateEmails.listPage(chris)).data;
    expect(await server().admin.alternateEmails.get(chris, existing!.id)).toEqual({ id: existing!.id, email: 'chris.m@acme.example', confirmed: true });
    await expect(server().admin.alternateEmails.get(chris, 1234567890123456)).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it('makes a confirmed alternate primary', async () => {
    const chris = await server().userId('chris.morgan@acme.example');
    const [existing] = (await server().admin.alternateEmails.listPage(chris)).data;
    const promoted = await server().admin.alternateEmails.makePrimary(chris, existing!.id);
    expect(promoted.email).toBe('chris.m@acme.example');
    expect((await server().admin.users.get(chris)).email).toBe('chris.m@acme.example');
  });

  it('deletes one', async () => {
    const chris = await server().userId('chris.morgan@acme.example');
    const [existing] = (await server().admin.alternateEmails.listPage(chris)).data;
    await server().admin.alternateEmails.delete(chris, existing!.id);
    expect((await server().admin.alternateEmails.listPage(chris)).data).toEqual([]);
  });
});
