import { beforeAll, describe, expect, it } from 'vitest';
import { createJobRegistry } from '../../../jobs/registry.js';
import { ACTION_NAMES, type ActionInput, type ActionName } from '../../../src/manifest/action.js';
import type { ResolvedTarget } from '../../../src/plan/planned-row.js';
import type { JobType } from '../../../src/queue/job-type.js';
import { useCheckedFiles } from '../../helpers/checked-files.js';
import { PNG_BYTES } from '../../helpers/png-bytes.js';
import type { FakeState } from './fake-api.js';
import { IDS, LABS_PLAN, PLAN, SHEET, contextFor, createDemoFake } from './job-fixtures.js';

interface Case {
  input: ActionInput;
  target: ResolvedTarget;
  /** The effect the row asks for, read from the fake's state. */
  effect: (state: FakeState) => boolean;
  /** What confirm answers once run has acted (every action but one: done). */
  confirmAfterRun?: 'done' | 'not-done';
}

const u = (state: FakeState, id: number) => state.users.get(id);
const columns = (state: FakeState) => state.sheets.get(SHEET)!.columns;

/** One row per action, against the demo slice of job-fixtures.ts. */
const CASES: Record<ActionName, Case> = {
  add: {
    input: { action: 'add', user: { email: 'new.hire@acme.example' }, firstName: 'New', lastName: 'Hire' },
    target: {},
    effect: (s) => [...s.users.values()].some((x) => x.email === 'new.hire@acme.example' && x.firstName === 'New'),
  },
  update: {
    input: { action: 'update', user: { email: 'marcus.chen@acme.example' }, lastName: 'Chen-Li', licensedSheetCreator: true },
    target: { userId: IDS.marcus },
    effect: (s) => u(s, IDS.marcus)?.lastName === 'Chen-Li' && u(s, IDS.marcus)?.licensedSheetCreator === true,
  },
  deactivate: {
    input: { action: 'deactivate', user: { email: 'marcus.chen@acme.example' } },
    target: { userId: IDS.marcus },
    effect: (s) => u(s, IDS.marcus)?.status === 'DEACTIVATED',
  },
  reactivate: {
    input: { action: 'reactivate', user: { email: 'taylor.brooks@acme.example' } },
    target: { userId: IDS.taylor },
    effect: (s) => u(s, IDS.taylor)?.status === 'ACTIVE',
  },
  remove: {
    input: { action: 'remove', user: { email: 'marcus.chen@acme.example' }, transferTo: { email: 'dana.whitfield@acme.example' }, transferSheets: true },
    target: { userId: IDS.marcus, transferToUserId: IDS.dana },
    effect: (s) => !s.users.has(IDS.marcus),
  },
  downgrade: {
    input: { action: 'downgrade', user: { email: 'elena.garcia@acme.example' }, planId: PLAN, seatType: 'VIEWER', removeAdminStatus: true },
    target: { userId: IDS.elena, planId: PLAN },
    effect: (s) => u(s, IDS.elena)?.plans[0]?.seatType === 'VIEWER' && u(s, IDS.elena)?.admin === false,
  },
  upgrade: {
    input: { action: 'upgrade', user: { email: 'casey.nguyen@acme.example' }, seatType: 'MEMBER' },
    target: { userId: IDS.casey, planId: PLAN },
    effect: (s) => u(s, IDS.casey)?.plans[0]?.seatType === 'MEMBER',
  },
  'remove-from-plan': {
    input: { action: 'remove-from-plan', user: { email: 'noah.fischer@acme.example' }, planId: LABS_PLAN },
    target: { userId: IDS.noah, planId: LABS_PLAN },
    effect: (s) => u(s, IDS.noah)?.plans.every((p) => p.planId !== LABS_PLAN) === true,
  },
  'add-alternate-email': {
    input: { action: 'add-alternate-email', user: { email: 'marcus.chen@acme.example' }, alternateEmail: 'marcus@labs.acme.example' },
    target: { userId: IDS.marcus },
    effect: (s) => u(s, IDS.marcus)?.alternates.some((a) => a.email === 'marcus@labs.acme.example') === true,
  },
  'delete-alternate-email': {
    input: { action: 'delete-alternate-email', user: { email: 'chris.morgan@acme.example' }, alternateEmail: 'chris.m@acme.example' },
    target: { userId: IDS.chris, alternateEmailId: IDS.chrisAlternate },
    effect: (s) => u(s, IDS.chris)?.alternates.length === 0,
  },
  'make-alternate-email-primary': {
    input: { action: 'make-alternate-email-primary', user: { email: 'chris.morgan@acme.example' }, alternateEmail: 'chris.m@acme.example' },
    target: { userId: IDS.chris, alternateEmailId: IDS.chrisAlternate },
    effect: (s) => u(s, IDS.chris)?.email === 'chris.m@acme.example',
  },
  'set-profile-image': {
    input: { action: 'set-profile-image', user: { email: 'marcus.chen@acme.example' }, image: 'marcus.png' },
    // '' = the pre-flight saw no image before the batch (ResolvedTarget.profileImageId).
    target: { userId: IDS.marcus, profileImageId: '' } as ResolvedTarget,
    effect: (s) => u(s, IDS.marcus)?.profileImage !== undefined,
  },
  'add-column': {
    input: { action: 'add-column', sheetId: SHEET, title: 'Location', type: 'PICKLIST', index: 3, options: 'HQ|Remote' },
    target: { sheetId: SHEET },
    effect: (s) => columns(s).some((c) => c.title === 'Location' && c.options?.join() === 'HQ,Remote'),
  },
  'update-column': {
    input: { action: 'update-column', sheetId: SHEET, columnTitle: 'Notes', title: 'Comments', width: 300, hidden: false },
    target: { sheetId: SHEET, columnId: IDS.notes },
    effect: (s) => columns(s).some((c) => c.id === IDS.notes && c.title === 'Comments' && c.width === 300),
  },
  'delete-column': {
    input: { action: 'delete-column', sheetId: SHEET, columnTitle: 'Notes' },
    target: { sheetId: SHEET, columnId: IDS.notes },
    effect: (s) => columns(s).every((c) => c.id !== IDS.notes),
  },
  'create-discussion': {
    input: { action: 'create-discussion', sheetId: SHEET, comment: 'Laptops of leavers go back to IT by Friday.' },
    target: { sheetId: SHEET },
    effect: (s) => s.sheets.get(SHEET)!.discussions.length === 1,
  },
  'enable-webhook': {
    input: { action: 'enable-webhook', webhookId: IDS.disabledWebhook },
    target: { webhookId: IDS.disabledWebhook },
    effect: (s) => s.webhooks.get(IDS.disabledWebhook)?.enabled === true,
  },
  'disable-webhook': {
    input: { action: 'disable-webhook', webhookId: IDS.userWebhook },
    target: { webhookId: IDS.userWebhook },
    effect: (s) => s.webhooks.get(IDS.userWebhook)?.enabled === false,
  },
  'reset-webhook-secret': {
    input: { action: 'reset-webhook-secret', webhookId: IDS.userWebhook },
    target: { webhookId: IDS.userWebhook },
    effect: (s) => s.webhooks.get(IDS.userWebhook)?.sharedSecret !== 'old-secret',
    confirmAfterRun: 'not-done',
  },
  'update-webhook': {
    input: { action: 'update-webhook', webhookId: IDS.userWebhook, callbackUrl: 'https://hooks.acme.example/v2/assets' },
    target: { webhookId: IDS.userWebhook },
    effect: (s) => s.webhooks.get(IDS.userWebhook)?.callbackUrl === 'https://hooks.acme.example/v2/assets',
  },
  'delete-webhook': {
    input: { action: 'delete-webhook', webhookId: IDS.userWebhook },
    target: { webhookId: IDS.userWebhook },
    effect: (s) => !s.webhooks.has(IDS.userWebhook),
  },
};

describe('every job type', () => {
  const registry = createJobRegistry();
  const files = useCheckedFiles();
  beforeAll(async () => {
    CASES['set-profile-image'].target.upload = await files.file('marcus.png', PNG_BYTES);
  });

  it('is registered for every action of the manifest, under its own name', () => {
    expect([...registry.keys()].sort()).toEqual([...ACTION_NAMES].sort());
    for (const [name, job] of registry) expect(job.action).toBe(name);
  });

  describe.each(ACTION_NAMES.map((name) => [name] as const))('%s', (name) => {
    const job = registry.get(name) as JobType;
    const { input, target, effect, confirmAfterRun = 'done' } = CASES[name];

    it('confirms not-done before run, reading only', async () => {
      const fake = createDemoFake();
      expect(await job.confirm(contextFor(fake.api, input, target))).toBe('not-done');
      expect(fake.writes()).toEqual([]);
      expect(effect(fake.state)).toBe(false);
    });

    it('makes the change when run, and succeeds', async () => {
      const fake = createDemoFake();
      const result = await job.run(contextFor(fake.api, input, target));
      expect(result.outcome).toBe('succeeded');
      expect(effect(fake.state)).toBe(true);
      expect(fake.writes()).toHaveLength(1);
    });

    it(`confirms ${confirmAfterRun} after run, reading only`, async () => {
      const fake = createDemoFake();
      await job.run(contextFor(fake.api, input, target));
      const writesAfterRun = fake.writes().length;
      expect(await job.confirm(contextFor(fake.api, input, target))).toBe(confirmAfterRun);
      expect(fake.writes()).toHaveLength(writesAfterRun);
    });
  });
});
