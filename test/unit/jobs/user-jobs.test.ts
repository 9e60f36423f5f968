import { describe, expect, it } from 'vitest';
import { addUserJob } from '../../../jobs/add-user.js';
import { deactivateUserJob } from '../../../jobs/deactivate-user.js';
import { downgradeUserJob } from '../../../jobs/downgrade-user.js';
import { reactivateUserJob } from '../../../jobs/reactivate-user.js';
import { removeUserFromPlanJob } from '../../../jobs/remove-user-from-plan.js';
import { removeUserJob } from '../../../jobs/remove-user.js';
import { setProfileImageJob } from '../../../jobs/set-profile-image.js';
import { updateUserJob } from '../../../jobs/update-user.js';
import { upgradeUserJob } from '../../../jobs/upgrade-user.js';
import {
  InvalidArgumentError,
  ResourceNotFoundError,
  ServiceUnavailableError,
} from '../../../src/client/api-error.js';
import type { ResolvedTarget } from '../../../src/plan/planned-row.js';
import { useCheckedFiles } from '../../helpers/checked-files.js';
import { IDS, LABS_PLAN, PLAN, contextFor, createDemoFake } from './job-fixtures.js';

const unavailable = () => new ServiceUnavailableError({ operation: 'test', message: 'HTTP 503', status: 503, mayHaveApplied: true });
const gone = (operation: string) => new ResourceNotFoundError({ operation, message: 'Not Found', status: 404, errorCode: 1006 });

describe('user job types: finding the user', () => {
  it('uses the pre-flight userId without any lookup', async () => {
    const fake = createDemoFake();
    await deactivateUserJob.run(contextFor(fake.api, { action: 'deactivate', user: { email: 'marcus.chen@acme.example' } }, { userId: IDS.marcus }));
    expect(fake.calls).toEqual(['users.deactivate']);
  });

  it('uses the row userId when the pre-flight gave none', async () => {
    const fake = createDemoFake();
    await deactivateUserJob.run(contextFor(fake.api, { action: 'deactivate', user: { userId: String(IDS.marcus) } }));
    expect(fake.calls).toEqual(['users.deactivate']);
    expect(fake.state.users.get(IDS.marcus)?.status).toBe('DEACTIVATED');
  });

  it('looks the e-mail up once (any case) when neither gave an id', async () => {
    const fake = createDemoFake();
    await deactivateUserJob.run(contextFor(fake.api, { action: 'deactivate', user: { email: 'Marcus.Chen@ACME.example' } }));
    expect(fake.calls).toEqual(['users.listPage', 'users.deactivate']);
    expect(fake.state.users.get(IDS.marcus)?.status).toBe('DEACTIVATED');
  });

  it('fails with not found when the e-mail is no user of the organization', async () => {
    const fake = createDemoFake();
    const run = deactivateUserJob.run(contextFor(fake.api, { action: 'deactivate', user: { email: 'nobody@acme.example' } }));
    await expect(run).rejects.toBeInstanceOf(ResourceNotFoundError);
    expect(fake.writes()).toEqual([]);
  });
});

describe('user job types: errors', () => {
  it('lets a service error of run propagate for the queue to judge', async () => {
    const fake = createDemoFake();
    fake.failNext('users.deactivate', unavailable());
    const run = deactivateUserJob.run(contextFor(fake.api, { action: 'deactivate', user: { email: 'marcus.chen@acme.example' } }, { userId: IDS.marcus }));
    await expect(run).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('lets a service error of confirm propagate rather than guess', async () => {
    const fake = createDemoFake();
    fake.failNext('users.get', unavailable());
    const confirm = deactivateUserJob.confirm(contextFor(fake.api, { action: 'deactivate', user: { email: 'marcus.chen@acme.example' } }, { userId: IDS.marcus }));
    await expect(confirm).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('fails deactivate of a user who is gone instead of calling it done', async () => {
    const fake = createDemoFake();
    fake.state.users.delete(IDS.marcus);
    const confirm = deactivateUserJob.confirm(contextFor(fake.api, { action: 'deactivate', user: { email: 'marcus.chen@acme.example' } }, { userId: IDS.marcus }));
    await expect(confirm).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('addUserJob', () => {
  it('reports the new user id, and sends only the fields the row set', async () => {
    const fake = createDemoFake();
    const result = await addUserJob.run(contextFor(fake.api, { action: 'add', user: { email: 'new.hire@acme.example' } }));
    const created = [...fake.state.users.values()].find((x) => x.email === 'new.hire@acme.example');
    expect(result.detail).toMatchObject({ userId: created?.id, status: 'PENDING' });
    expect(Object.keys(created ?? {}).sort()).toEqual(['alternates', 'email', 'id', 'plans', 'status']);
  });
});

describe('updateUserJob', () => {
  it('confirms not-done while any one requested field differs', async () => {
    const fake = createDemoFake();
    fake.state.users.get(IDS.marcus)!.lastName = 'Chen-Li';
    const ctx = contextFor(fake.api, { action: 'update', user: { email: 'marcus.chen@acme.example' }, lastName: 'Chen-Li', admin: true }, { userId: IDS.marcus });
    expect(await updateUserJob.confirm(ctx)).toBe('not-done');
  });

  it('reads a flag the service leaves out as false', async () => {
    const fake = createDemoFake();
    delete fake.state.users.get(IDS.marcus)!.groupAdmin;
    const ctx = contextFor(fake.api, { action: 'update', user: { email: 'marcus.chen@acme.example' }, groupAdmin: false }, { userId: IDS.marcus });
    expect(await updateUserJob.confirm(ctx)).toBe('done');
  });
});

describe('reactivateUserJob', () => {
  it('confirms not-done while the user is still deactivated', async () => {
    const fake = createDemoFake();
    const ctx = contextFor(fake.api, { action: 'reactivate', user: { email: 'taylor.brooks@acme.example' } }, { userId: IDS.taylor });
    expect(await reactivateUserJob.confirm(ctx)).toBe('not-done');
  });
});

describe('removeUserJob', () => {
  const row = { action: 'remove', user: { email: 'marcus.chen@acme.example' }, transferTo: { email: 'dana.whitfield@acme.example' } } as const;

  it('resolves the transfer target by e-mail when the pre-flight gave no id', async () => {
    const fake = createDemoFake();
    let seenTransferTo: number | undefined;
    const remove = fake.api.users.remove;
    Object.assign(fake.api.users, {
      remove: (userId: number, options?: { transferTo?: number }) => {
        seenTransferTo = options?.transferTo;
        return remove(userId, options);
      },
    });
    await removeUserJob.run(contextFor(fake.api, row, { userId: IDS.marcus }));
    expect(seenTransferTo).toBe(IDS.dana);
  });

  it('answers unchanged, marked alreadyGone, when the user is already out of the organization', async () => {
    const fake = createDemoFake();
    fake.state.users.delete(IDS.marcus);
    const result = await removeUserJob.run(contextFor(fake.api, row, { userId: IDS.marcus, transferToUserId: IDS.dana }));
    expect(result).toEqual({ outcome: 'unchanged', detail: { userId: IDS.marcus, alreadyGone: true } });
  });

  it('keeps the 404 when confirm finds the user still there', async () => {
    const fake = createDemoFake();
    fake.failNext('users.remove', gone('users.remove'));
    const run = removeUserJob.run(contextFor(fake.api, row, { userId: IDS.marcus, transferToUserId: IDS.dana }));
    await expect(run).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('downgradeUserJob', () => {
  it('confirms not-done while an admin keeps admin status though the seat already matches', async () => {
    const fake = createDemoFake();
    fake.state.users.get(IDS.elena)!.plans[0]!.seatType = 'VIEWER';
    const ctx = contextFor(
      fake.api,
      { action: 'downgrade', user: { email: 'elena.garcia@acme.example' }, planId: PLAN, removeAdminStatus: true },
      { userId: IDS.elena, planId: PLAN },
    );
    expect(await downgradeUserJob.confirm(ctx)).toBe('not-done');
  });

  it('treats VIEWER and CONTRIBUTOR as one seat in confirm, either way round', async () => {
    const fake = createDemoFake();
    fake.state.users.get(IDS.marcus)!.plans[0]!.seatType = 'CONTRIBUTOR';
    const ctx = contextFor(fake.api, { action: 'downgrade', user: { email: 'marcus.chen@acme.example' }, seatType: 'VIEWER' }, { userId: IDS.marcus, planId: PLAN });
    expect(await downgradeUserJob.confirm(ctx)).toBe('done');
    fake.state.users.get(IDS.marcus)!.plans[0]!.seatType = 'VIEWER';
    const asContributor = contextFor(fake.api, { action: 'downgrade', user: { email: 'marcus.chen@acme.example' }, seatType: 'CONTRIBUTOR' }, { userId: IDS.marcus, planId: PLAN });
    expect(await downgradeUserJob.confirm(asContributor)).toBe('done');
  });

  it("takes the user's only plan when neither the pre-flight nor the row names one", async () => {
    const fake = createDemoFake();
    const result = await downgradeUserJob.run(contextFor(fake.api, { action: 'downgrade', user: { email: 'marcus.chen@acme.example' } }, { userId: IDS.marcus }));
    // No seatType in the row: the default target is CONTRIBUTOR (VIEWER's successor).
    expect(result.detail).toMatchObject({ planId: PLAN, seatType: 'CONTRIBUTOR' });
  });

  it('refuses to guess the plan of a user in two plans', async () => {
    const fake = createDemoFake();
    const run = downgradeUserJob.run(contextFor(fake.api, { action: 'downgrade', user: { email: 'noah.fischer@acme.example' } }, { userId: IDS.noah }));
    await expect(run).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(fake.writes()).toEqual([]);
  });
});

describe('upgradeUserJob', () => {
  it('confirms not-done when the seat is a different one', async () => {
    const fake = createDemoFake();
    const ctx = contextFor(fake.api, { action: 'upgrade', user: { email: 'casey.nguyen@acme.example' }, seatType: 'GUEST' }, { userId: IDS.casey, planId: PLAN });
    expect(await upgradeUserJob.confirm(ctx)).toBe('not-done');
  });
});

describe('removeUserFromPlanJob', () => {
  const row = { action: 'remove-from-plan', user: { email: 'noah.fischer@acme.example' }, planId: LABS_PLAN } as const;

  it('answers unchanged when the plan is already not among the user plans', async () => {
    const fake = createDemoFake();
    fake.state.users.get(IDS.noah)!.plans.pop();
    const result = await removeUserFromPlanJob.run(contextFor(fake.api, row, { userId: IDS.noah, planId: LABS_PLAN }));
    expect(result.outcome).toBe('unchanged');
  });

  it('fails with not found when the user is gone altogether', async () => {
    const fake = createDemoFake();
    fake.state.users.delete(IDS.noah);
    const run = removeUserFromPlanJob.run(contextFor(fake.api, row, { userId: IDS.noah, planId: LABS_PLAN }));
    await expect(run).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('setProfileImageJob', () => {
  const row = { action: 'set-profile-image', user: { email: 'marcus.chen@acme.example' }, image: 'Marcus.JPG' } as const;
  const files = useCheckedFiles();
  const JPEG_BYTES = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb', 'hex');

  it('uploads the checked bytes with the type they show and reports the new image id', async () => {
    const fake = createDemoFake();
    const image = await files.file('Marcus.JPG', JPEG_BYTES);
    let source: unknown;
    const upload = fake.api.users.uploadProfileImage;
    Object.assign(fake.api.users, {
      uploadProfileImage: (userId: number, sent: unknown) => {
        source = sent;
        return upload(userId, sent as never);
      },
    });
    const result = await setProfileImageJob.run(contextFor(fake.api, row, { userId: IDS.marcus, upload: image }));
    expect(source).toEqual({ data: JPEG_BYTES, fileName: 'Marcus.JPG', contentType: 'image/jpeg' });
    expect(result.detail?.imageId).toBe(fake.state.users.get(IDS.marcus)?.profileImage?.imageId);
  });

  it('confirms not-done when the image is the one from before the batch', async () => {
    const fake = createDemoFake();
    fake.state.users.get(IDS.marcus)!.profileImage = { imageId: 'img-old' };
    const ctx = contextFor(fake.api, row, { userId: IDS.marcus, profileImageId: 'img-old' } as ResolvedTarget);
    expect(await setProfileImageJob.confirm(ctx)).toBe('not-done');
  });

  it('confirms not-done without the pre-flight imageId, since an old image cannot be told from ours', async () => {
    const fake = createDemoFake();
    await setProfileImageJob.run(contextFor(fake.api, row, { userId: IDS.marcus, upload: await files.file('Marcus.JPG', JPEG_BYTES) }));
    expect(await setProfileImageJob.confirm(contextFor(fake.api, row, { userId: IDS.marcus }))).toBe('not-done');
  });
});
