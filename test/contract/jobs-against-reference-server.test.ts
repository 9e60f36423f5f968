import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withoutMarkers } from '../../jobs/discussion-marker.js';
import { createJobRegistry } from '../../jobs/registry.js';
import { InvalidRequestError } from '../../src/client/api-error.js';
import { createSilentLogger } from '../../src/core/logger.js';
import { ACTION_NAMES, actionSchema, type ActionInput, type ActionName } from '../../src/manifest/action.js';
import { checkLocalFile, type LocalFile } from '../../src/manifest/local-file.js';
import type { ResolvedTarget } from '../../src/plan/planned-row.js';
import type { JobContext, JobType } from '../../src/queue/job-type.js';
import { startContractServer, type ContractServer } from '../helpers/contract-server.js';

const PLAN = 5420192837465012;
const LABS_PLAN = 5420192837465013;
const SHEET = 2094857361029384;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

let s: ContractServer;
let files: string;
let subscriber: Server;
let callbackUrl: string;

/** A webhook subscriber on loopback that answers the verification challenge (docs/service.md#webhooks). */
async function startSubscriber(): Promise<Server> {
  const server = createServer((request, response) => {
    const challenge = request.headers['smartsheet-hook-challenge'];
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json', 'smartsheet-hook-response': String(challenge ?? '') });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  s = await startContractServer();
  files = await mkdtemp(join(tmpdir(), 'seatflow-jobs-'));
  await writeFile(join(files, 'marcus.png'), PNG);
  subscriber = await startSubscriber();
  const address = subscriber.address();
  callbackUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/hook`;
});
afterAll(async () => {
  await s.close();
  await new Promise((resolve) => subscriber.close(resolve));
  await rm(files, { recursive: true, force: true });
});
beforeEach(() => {
  s.sim.controls.reset();
});

async function columnId(title: string): Promise<number> {
  const page = await s.admin.columns.listPage(SHEET, { includeAll: true });
  const found = page.data.find((column) => column.title === title);
  if (found === undefined) throw new Error(`no column ${title}`);
  return found.id;
}

async function chrisAlternate(): Promise<ResolvedTarget> {
  const userId = await s.userId('chris.morgan@acme.example');
  const page = await s.admin.alternateEmails.listPage(userId);
  return { userId, alternateEmailId: page.data.find((alternate) => alternate.email === 'chris.m@acme.example')?.id };
}

async function adminWebhookId(): Promise<number> {
  const page = await s.admin.webhooks.listPage({ includeAll: true });
  const found = page.data.find((webhook) => webhook.name === 'Asset register changes');
  if (found === undefined) throw new Error('no demo webhook');
  return found.id;
}

interface Row {
  input: ActionInput;
  /** What the pre-flight would have resolved (computed through the client, after the reset). */
  target: () => Promise<ResolvedTarget>;
  confirmAfterRun?: 'done' | 'not-done';
}

/** One row per action against the demo organization, each on a story user or object the brief names. */
const ROWS: Record<ActionName, Row> = {
  add: { input: { action: 'add', user: { email: 'new.hire@acme.example' }, firstName: 'New', lastName: 'Hire' }, target: async () => ({}) },
  update: {
    input: { action: 'update', user: { email: 'marcus.chen@acme.example' }, lastName: 'Chen-Li', resourceViewer: true },
    target: async () => ({ userId: await s.userId('marcus.chen@acme.example') }),
  },
  deactivate: {
    input: { action: 'deactivate', user: { email: 'marcus.chen@acme.example' } },
    target: async () => ({ userId: await s.userId('marcus.chen@acme.example') }),
  },
  reactivate: {
    input: { action: 'reactivate', user: { email: 'taylor.brooks@acme.example' } },
    target: async () => ({ userId: await s.userId('taylor.brooks@acme.example') }),
  },
  remove: {
    input: { action: 'remove', user: { email: 'priya.shah@acme.example' }, transferTo: { email: 'dana.whitfield@acme.example' }, transferSheets: true },
    target: async () => ({ userId: await s.userId('priya.shah@acme.example'), transferToUserId: await s.userId('dana.whitfield@acme.example') }),
  },
  downgrade: {
    input: { action: 'downgrade', user: { email: 'elena.garcia@acme.example' }, planId: PLAN, seatType: 'VIEWER', removeAdminStatus: true },
    target: async () => ({ userId: await s.userId('elena.garcia@acme.example'), planId: PLAN }),
  },
  upgrade: {
    input: { action: 'upgrade', user: { email: 'casey.nguyen@acme.example' }, seatType: 'MEMBER' },
    target: async () => ({ userId: await s.userId('casey.nguyen@acme.example'), planId: PLAN }),
  },
  'remove-from-plan': {
    input: { action: 'remove-from-plan', user: { email: 'noah.fischer@acme.example' }, planId: LABS_PLAN },
    target: async () => ({ userId: await s.userId('noah.fischer@acme.example'), planId: LABS_PLAN }),
  },
  'add-alternate-email': {
    input: { action: 'add-alternate-email', user: { email: 'marcus.chen@acme.example' }, alternateEmail: 'm.chen@acme.example' },
    target: async () => ({ userId: await s.userId('marcus.chen@acme.example') }),
  },
  'delete-alternate-email': {
    input: { action: 'delete-alternate-email', user: { email: 'chris.morgan@acme.example' }, alternateEmail: 'chris.m@acme.example' },
    target: chrisAlternate,
  },
  'make-alternate-email-primary': {
    input: { action: 'make-alternate-email-primary', user: { email: 'chris.morgan@acme.example' }, alternateEmail: 'chris.m@acme.example' },
    target: chrisAlternate,
  },
  'set-profile-image': {
    input: { action: 'set-profile-image', user: { email: 'marcus.chen@acme.example' }, image: 'marcus.png' },
    // '' = the pre-flight saw no image (ResolvedTarget.profileImageId); upload = the file as the manifest check found it.
    target: async () => ({ userId: await s.userId('marcus.chen@acme.example'), profileImageId: '', upload: await checkedImage() }) as ResolvedTarget,
  },
  'add-column': {
    input: { action: 'add-column', sheetId: SHEET, title: 'Location', type: 'PICKLIST', index: 2, options: 'HQ|Remote' },
    target: async () => ({ sheetId: SHEET }),
  },
  'update-column': {
    input: { action: 'update-column', sheetId: SHEET, columnTitle: 'Notes', title: 'Comments', width: 300 },
    target: async () => ({ sheetId: SHEET, columnId: await columnId('Notes') }),
  },
  'delete-column': {
    input: { action: 'delete-column', sheetId: SHEET, columnTitle: 'Notes' },
    target: async () => ({ sheetId: SHEET, columnId: await columnId('Notes') }),
  },
  'create-discussion': {
    input: { action: 'create-discussion', sheetId: SHEET, comment: 'Laptops of leavers go back to IT by Friday.' },
    target: async () => ({ sheetId: SHEET }),
  },
  'enable-webhook': {
    input: { action: 'enable-webhook', webhookId: 1 },
    target: async () => {
      const created = await s.admin.webhooks.create({ name: 'Local feed', callbackUrl, scope: 'sheet', scopeObjectId: SHEET, events: ['*.*'], version: 1 });
      return { webhookId: created.id };
    },
  },
  'disable-webhook': { input: { action: 'disable-webhook', webhookId: 1 }, target: async () => ({ webhookId: await adminWebhookId() }) },
  'reset-webhook-secret': {
    input: { action: 'reset-webhook-secret', webhookId: 1 },
    target: async () => ({ webhookId: await adminWebhookId() }),
    confirmAfterRun: 'not-done',
  },
  'delete-webhook': { input: { action: 'delete-webhook', webhookId: 1 }, target: async () => ({ webhookId: await adminWebhookId() }) },
  'update-webhook': { input: { action: 'update-webhook', webhookId: 1, callbackUrl: 'https://hooks.acme.example/v2/it-assets' }, target: async () => ({ webhookId: await adminWebhookId() }) },
};

async function checkedImage(): Promise<LocalFile> {
  const checked = await checkLocalFile('marcus.png', files, 1024 * 1024);
  if (!checked.ok) throw new Error(checked.message);
  return checked.file;
}

function contextFor(input: ActionInput, target: ResolvedTarget): JobContext {
  return {
    api: s.admin,
    action: actionSchema.parse(input),
    target,
    batchId: 'contract',
    row: 1,
    previousAttemptUncertain: false,
    signal: new AbortController().signal,
    logger: createSilentLogger(),
  };
}

describe('job types against the reference server', () => {
  const registry = createJobRegistry();

  it.each(ACTION_NAMES.map((name) => [name] as const))('%s: not-done before, one change when run, then confirmed (done; not-done for reset-webhook-secret)', async (name) => {
    const job = registry.get(name) as JobType;
    const { input, target, confirmAfterRun = 'done' } = ROWS[name];
    const resolved = await target();
    const context = contextFor(input, resolved);
    const before = s.sim.mutations.size();

    expect(await job.confirm(context)).toBe('not-done');
    expect(s.sim.mutations.size()).toBe(before);

    const result = await job.run(context);
    expect(result.outcome).toBe('succeeded');
    // Exactly one state change, about the row's user when it names one: what "each user changed once" is measured by.
    const changes = s.sim.mutations.list().slice(before);
    expect(changes).toHaveLength(1);
    if (resolved.userId !== undefined) expect(changes[0]?.userId).toBe(resolved.userId);

    expect(await job.confirm({ ...context, previousAttemptUncertain: true })).toBe(confirmAfterRun);
    expect(s.sim.mutations.size()).toBe(before + 1);
  });

  // The case "each user changed once" is about: the service made the change, the answer was lost. The queue then
  // calls confirm before run; confirm must see the change, so that run is never repeated.
  it.each(ACTION_NAMES.filter((name) => name !== 'reset-webhook-secret').map((name) => [name] as const))(
    '%s: confirms done after a write whose answer was lost',
    async (name) => {
      const job = registry.get(name) as JobType;
      const { input, target } = ROWS[name];
      const context = contextFor(input, await target());
      const before = s.sim.mutations.size();
      s.sim.faults.configure('500-after:1');
      try {
        await expect(job.run(context)).rejects.toMatchObject({ category: 'ServiceUnavailable', mayHaveApplied: true });
      } finally {
        s.sim.faults.configure('');
      }
      expect(s.sim.mutations.size()).toBe(before + 1);
      expect(await job.confirm({ ...context, previousAttemptUncertain: true })).toBe('done');
      expect(s.sim.mutations.size()).toBe(before + 1);
    },
  );

  it('keeps the invisible marker of a discussion, and the visible text as written', async () => {
    const job = registry.get('create-discussion') as JobType;
    const { input, target } = ROWS['create-discussion'];
    const result = await job.run(contextFor(input, await target()));
    const discussion = await s.admin.discussions.get(SHEET, Number(result.detail?.discussionId));
    const text = discussion.comments?.[0]?.text ?? '';
    expect(text).not.toBe('Laptops of leavers go back to IT by Friday.');
    expect(withoutMarkers(text)).toBe('Laptops of leavers go back to IT by Friday.');
  });

  it('fails enable-webhook when the callback cannot be verified, leaving it disabled', async () => {
    const webhookId = await adminWebhookId();
    await s.admin.webhooks.update(webhookId, { enabled: false });
    const job = registry.get('enable-webhook') as JobType;
    const context = contextFor({ action: 'enable-webhook', webhookId }, { webhookId });
    await expect(job.run(context)).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await job.confirm(context)).toBe('not-done');
  });

  it('reports the seat an add cost, for the report (docs/service.md#add-user)', async () => {
    const job = registry.get('add') as JobType;
    const result = await job.run(contextFor(ROWS.add.input, {}));
    expect(result.detail).toMatchObject({ status: 'ACTIVE', seatType: 'PROVISIONAL_MEMBER', provisionalUntil: expect.stringMatching(/^\d{4}-/) });
  });

  it('answers unchanged when the user is already out of the organization', async () => {
    const job = registry.get('remove') as JobType;
    const { input, target } = ROWS.remove;
    const context = contextFor(input, await target());
    await job.run(context);
    expect(await job.run(context)).toMatchObject({ outcome: 'unchanged', detail: { alreadyGone: true } });
  });
});
