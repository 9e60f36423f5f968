import { describe, expect, it } from 'vitest';
import { addAlternateEmailJob } from '../../../jobs/add-alternate-email.js';
import { deleteAlternateEmailJob } from '../../../jobs/delete-alternate-email.js';
import { makeAlternateEmailPrimaryJob } from '../../../jobs/make-alternate-email-primary.js';
import { ResourceNotFoundError } from '../../../src/client/api-error.js';
import { IDS, contextFor, createDemoFake } from './job-fixtures.js';

const chris = { email: 'chris.morgan@acme.example' };

describe('addAlternateEmailJob', () => {
  it('reports the id of the address it added, and whether the service counts it confirmed', async () => {
    const fake = createDemoFake();
    const result = await addAlternateEmailJob.run(
      contextFor(fake.api, { action: 'add-alternate-email', user: chris, alternateEmail: 'c.morgan@acme.example' }, { userId: IDS.chris }),
    );
    const added = fake.state.users.get(IDS.chris)!.alternates.find((a) => a.email === 'c.morgan@acme.example');
    expect(result.detail).toEqual({ userId: IDS.chris, alternateEmailId: added?.id, confirmed: added?.confirmed });
  });

  it('confirms done whatever the case of the stored address', async () => {
    const fake = createDemoFake();
    fake.state.users.get(IDS.chris)!.alternates[0]!.email = 'Chris.M@Acme.example';
    const ctx = contextFor(fake.api, { action: 'add-alternate-email', user: chris, alternateEmail: 'chris.m@acme.example' }, { userId: IDS.chris });
    expect(await addAlternateEmailJob.confirm(ctx)).toBe('done');
  });
});

describe('deleteAlternateEmailJob', () => {
  const row = { action: 'delete-alternate-email', user: chris, alternateEmail: 'chris.m@acme.example' } as const;

  it('finds the address id by listing when the pre-flight gave none', async () => {
    const fake = createDemoFake();
    const result = await deleteAlternateEmailJob.run(contextFor(fake.api, row, { userId: IDS.chris }));
    expect(result).toEqual({ outcome: 'succeeded', detail: { userId: IDS.chris, alternateEmailId: IDS.chrisAlternate } });
    expect(fake.calls).toEqual(['alternateEmails.list', 'alternateEmails.delete']);
  });

  it('answers unchanged when the delete finds the address already gone', async () => {
    const fake = createDemoFake();
    fake.state.users.get(IDS.chris)!.alternates = [];
    const result = await deleteAlternateEmailJob.run(contextFor(fake.api, row, { userId: IDS.chris, alternateEmailId: IDS.chrisAlternate }));
    expect(result.outcome).toBe('unchanged');
  });

  it('fails with not found when the user is gone, not unchanged', async () => {
    const fake = createDemoFake();
    fake.state.users.delete(IDS.chris);
    const run = deleteAlternateEmailJob.run(contextFor(fake.api, row, { userId: IDS.chris, alternateEmailId: IDS.chrisAlternate }));
    await expect(run).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('makeAlternateEmailPrimaryJob', () => {
  const row = { action: 'make-alternate-email-primary', user: chris, alternateEmail: 'chris.m@acme.example' } as const;

  it('finds the address id by listing when the pre-flight gave none', async () => {
    const fake = createDemoFake();
    await makeAlternateEmailPrimaryJob.run(contextFor(fake.api, row, { userId: IDS.chris }));
    expect(fake.state.users.get(IDS.chris)?.email).toBe('chris.m@acme.example');
  });

  it('fails with not found when the address is no alternate of the user', async () => {
    const fake = createDemoFake();
    const run = makeAlternateEmailPrimaryJob.run(
      contextFor(fake.api, { ...row, alternateEmail: 'someone.else@acme.example' }, { userId: IDS.chris }),
    );
    await expect(run).rejects.toBeInstanceOf(ResourceNotFoundError);
    expect(fake.writes()).toEqual([]);
  });
});
