import { ResourceNotFoundError } from '../../../src/client/api-error.js';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import type { AlternateEmail, Column, Discussion, IndexResult, User, UserPlan, Webhook, WebhookUpdate } from '../../../src/contract/index.js';

/**
 * A small in-memory SmartsheetApi for job-type tests: just enough state and behaviour for every call a job makes,
 * a log of the calls (so a test can prove `confirm` only reads), and one-shot failures to inject.
 */

export interface FakeUser extends User {
  plans: UserPlan[];
  alternates: AlternateEmail[];
}

export interface FakeSheet {
  columns: Column[];
  discussions: Discussion[];
}

export interface FakeState {
  currentUserEmail: string;
  users: Map<number, FakeUser>;
  sheets: Map<number, FakeSheet>;
  webhooks: Map<number, Webhook>;
  /** Webhooks whose callback does not answer the verification challenge. */
  failingVerification: Set<number>;
}

export interface FakeApi {
  api: SmartsheetApi;
  state: FakeState;
  /** Every call, e.g. `users.get`. */
  calls: string[];
  /** Calls that change something (anything but get/list). */
  writes(): string[];
  /** The next call of `operation` throws `error` instead of acting. */
  failNext(operation: string, error: unknown): void;
}

const READ = /\.(get|getCurrent|list|listPage|listPlans|listPlansPage)$/;

function page<T>(items: T[]): IndexResult<T> {
  return { pageNumber: 1, pageSize: items.length, totalPages: 1, totalCount: items.length, data: items };
}

async function* iterate<T>(items: Promise<T[]>): AsyncIterable<T> {
  yield* await items;
}

function notFound(operation: string, what: string): ResourceNotFoundError {
  return new ResourceNotFoundError({ operation, message: `${what} not found`, status: 404, errorCode: 1006 });
}

export function createFakeApi(seed: Partial<FakeState> = {}): FakeApi {
  const state: FakeState = {
    currentUserEmail: seed.currentUserEmail ?? 'admin@acme.example',
    users: seed.users ?? new Map(),
    sheets: seed.sheets ?? new Map(),
    webhooks: seed.webhooks ?? new Map(),
    failingVerification: seed.failingVerification ?? new Set(),
  };
  const calls: string[] = [];
  const failures = new Map<string, unknown>();
  let nextId = 9_000_000_000_000_000;

  /** Logs the call, throws an injected failure, then acts. */
  async function call<T>(operation: string, act: () => T): Promise<T> {
    calls.push(operation);
    if (failures.has(operation)) {
      const error = failures.get(operation);
      failures.delete(operation);
      throw error;
    }
    return act();
  }

  const user = (operation: string, id: number): FakeUser => {
    const found = state.users.get(id);
    if (found === undefined) throw notFound(operation, `user ${id}`);
    return found;
  };
  const sheet = (operation: string, id: number): FakeSheet => {
    const found = state.sheets.get(id);
    if (found === undefined) throw notFound(operation, `sheet ${id}`);
    return found;
  };
  const webhook = (operation: string, id: number): Webhook => {
    const found = state.webhooks.get(id);
    if (found === undefined) throw notFound(operation, `webhook ${id}`);
    return found;
  };
  const userView = (u: FakeUser): User => {
    const { plans: _plans, alternates: _alternates, ...rest } = u;
    return { ...rest };
  };
  const seatIn = (operation: string, userId: number, planId: number): UserPlan => {
    const seat = user(operation, userId).plans.find((p) => p.planId === planId);
    if (seat === undefined) throw notFound(operation, `plan ${planId} of user ${userId}`);
    return seat;
  };
  const listUsers = (email?: readonly string[]) =>
    [...state.users.values()].filter((u) => email === undefined || email.some((e) => e.toLowerCase() === u.email.toLowerCase())).map(userView);
  const listDiscussions = (sheetId: number, include?: readonly string[]) =>
    sheet('discussions.list', sheetId).discussions.map((d) => (include?.includes('comments') === true ? structuredClone(d) : { ...d, comments: undefined }));
  const createDiscussion = (sheetId: number, text: string): Discussion => {
    const discussion: Discussion = {
      id: nextId++,
      title: text.slice(0, 100),
      parentType: 'SHEET',
      parentId: sheetId,
      comments: [{ id: nextId++, text, createdBy: { email: state.currentUserEmail } }],
      createdBy: { email: state.currentUserEmail },
    };
    sheet('discussions.create', sheetId).discussions.push(discussion);
    return discussion;
  };
  const updateWebhook = (id: number, changes: WebhookUpdate): Webhook => {
    const found = webhook('webhooks.update', id);
    const { enabled } = changes;
    if (changes.callbackUrl !== undefined) found.callbackUrl = changes.callbackUrl;
    if (changes.name !== undefined) found.name = changes.name;
    if (enabled === true) {
      const verified = !state.failingVerification.has(id);
      found.enabled = verified;
      found.status = verified ? 'ENABLED' : 'DISABLED_VERIFICATION_FAILED';
    } else if (enabled === false) {
      found.enabled = false;
      found.status = 'DISABLED_BY_OWNER';
    }
    return { ...found };
  };

  const api: SmartsheetApi = {
    users: {
      add: (body) =>
        call('users.add', () => {
          const created: FakeUser = { ...body, id: nextId++, status: 'PENDING', plans: [], alternates: [] };
          state.users.set(created.id, created);
          return userView(created);
        }),
      listPage: (options) => call('users.listPage', () => page(listUsers(options?.email))),
      list: (options) => iterate(call('users.list', () => listUsers(options?.email))),
      getCurrent: () =>
        call('users.getCurrent', () => {
          const me = [...state.users.values()].find((u) => u.email === state.currentUserEmail);
          if (me === undefined) throw notFound('users.getCurrent', 'current user');
          return userView(me);
        }),
      get: (userId) => call('users.get', () => userView(user('users.get', userId))),
      update: (userId, changes) => call('users.update', () => userView(Object.assign(user('users.update', userId), changes))),
      remove: (userId) =>
        call('users.remove', () => {
          user('users.remove', userId);
          state.users.delete(userId);
        }),
      deactivate: (userId) => call('users.deactivate', () => void (user('users.deactivate', userId).status = 'DEACTIVATED')),
      reactivate: (userId) => call('users.reactivate', () => void (user('users.reactivate', userId).status = 'ACTIVE')),
      downgrade: (userId, planId, options) =>
        call('users.downgrade', () => {
          seatIn('users.downgrade', userId, planId).seatType = options.seatType === 'CONTRIBUTOR' ? 'VIEWER' : options.seatType;
          if (options.removeAdminStatus === true) user('users.downgrade', userId).admin = false;
        }),
      upgrade: (userId, planId, options) =>
        call('users.upgrade', () => void (seatIn('users.upgrade', userId, planId).seatType = options?.seatType ?? 'MEMBER')),
      listPlansPage: (userId) => call('users.listPlansPage', () => ({ data: structuredClone(user('users.listPlansPage', userId).plans) })),
      listPlans: (userId) => iterate(call('users.listPlans', () => structuredClone(user('users.listPlans', userId).plans))),
      removeFromPlan: (userId, planId) =>
        call('users.removeFromPlan', () => {
          seatIn('users.removeFromPlan', userId, planId);
          const target = user('users.removeFromPlan', userId);
          target.plans = target.plans.filter((p) => p.planId !== planId);
        }),
      uploadProfileImage: (userId) =>
        call('users.uploadProfileImage', () => {
          const target = user('users.uploadProfileImage', userId);
          target.profileImage = { imageId: `img-${nextId++}`, height: 1050, width: 1050 };
          return userView(target);
        }),
    },
    alternateEmails: {
      add: (userId, emails) =>
        call('alternateEmails.add', () => {
          const target = user('alternateEmails.add', userId);
          const added = emails.map((email) => ({ id: nextId++, email, confirmed: false }));
          target.alternates.push(...added);
          return added;
        }),
      listPage: (userId) => call('alternateEmails.listPage', () => page([...user('alternateEmails.listPage', userId).alternates])),
      list: (userId) => iterate(call('alternateEmails.list', () => [...user('alternateEmails.list', userId).alternates])),
      get: (userId, id) =>
        call('alternateEmails.get', () => {
          const found = user('alternateEmails.get', userId).alternates.find((a) => a.id === id);
          if (found === undefined) throw notFound('alternateEmails.get', `alternate e-mail ${id}`);
          return found;
        }),
      delete: (userId, id) =>
        call('alternateEmails.delete', () => {
          const target = user('alternateEmails.delete', userId);
          if (!target.alternates.some((a) => a.id === id)) throw notFound('alternateEmails.delete', `alternate e-mail ${id}`);
          target.alternates = target.alternates.filter((a) => a.id !== id);
        }),
      makePrimary: (userId, id) =>
        call('alternateEmails.makePrimary', () => {
          const target = user('alternateEmails.makePrimary', userId);
          const promoted = target.alternates.find((a) => a.id === id);
          if (promoted === undefined) throw notFound('alternateEmails.makePrimary', `alternate e-mail ${id}`);
          target.alternates = [...target.alternates.filter((a) => a.id !== id), { id: nextId++, email: target.email, confirmed: true }];
          target.email = promoted.email;
          return promoted;
        }),
    },
    discussions: {
      create: (sheetId, body) => call('discussions.create', () => createDiscussion(sheetId, body.comment.text)),
      createWithAttachment: (sheetId, body) => call('discussions.createWithAttachment', () => createDiscussion(sheetId, body.comment.text)),
      get: (sheetId, id) =>
        call('discussions.get', () => {
          const found = sheet('discussions.get', sheetId).discussions.find((d) => d.id === id);
          if (found === undefined) throw notFound('discussions.get', `discussion ${id}`);
          return found;
        }),
      listPage: (sheetId, options) => call('discussions.listPage', () => page(listDiscussions(sheetId, options?.include))),
      list: (sheetId, options) => iterate(call('discussions.list', () => listDiscussions(sheetId, options?.include))),
      delete: (sheetId, id) =>
        call('discussions.delete', () => {
          const target = sheet('discussions.delete', sheetId);
          target.discussions = target.discussions.filter((d) => d.id !== id);
        }),
    },
    columns: {
      add: (sheetId, columns) =>
        call('columns.add', () => {
          const target = sheet('columns.add', sheetId);
          const added = columns.map((c) => ({ ...c, id: nextId++ }));
          target.columns.push(...added);
          return added;
        }),
      get: (sheetId, columnId) =>
        call('columns.get', () => {
          const found = sheet('columns.get', sheetId).columns.find((c) => c.id === columnId);
          if (found === undefined) throw notFound('columns.get', `column ${columnId}`);
          return { ...found };
        }),
      listPage: (sheetId) => call('columns.listPage', () => page([...sheet('columns.listPage', sheetId).columns])),
      list: (sheetId) => iterate(call('columns.list', () => [...sheet('columns.list', sheetId).columns])),
      update: (sheetId, columnId, changes) =>
        call('columns.update', () => {
          const found = sheet('columns.update', sheetId).columns.find((c) => c.id === columnId);
          if (found === undefined) throw notFound('columns.update', `column ${columnId}`);
          return { ...Object.assign(found, changes) };
        }),
      delete: (sheetId, columnId) =>
        call('columns.delete', () => {
          const target = sheet('columns.delete', sheetId);
          if (!target.columns.some((c) => c.id === columnId)) throw notFound('columns.delete', `column ${columnId}`);
          target.columns = target.columns.filter((c) => c.id !== columnId);
        }),
    },
    webhooks: {
      listPage: () => call('webhooks.listPage', () => page([...state.webhooks.values()])),
      list: () => iterate(call('webhooks.list', () => [...state.webhooks.values()])),
      get: (id) => call('webhooks.get', () => ({ ...webhook('webhooks.get', id) })),
      create: (body) =>
        call('webhooks.create', () => {
          const created: Webhook = { ...body, id: nextId++, enabled: false, status: 'NEW_NOT_VERIFIED' };
          state.webhooks.set(created.id, created);
          return created;
        }),
      update: (id, changes) => call('webhooks.update', () => updateWebhook(id, changes)),
      delete: (id) =>
        call('webhooks.delete', () => {
          webhook('webhooks.delete', id);
          state.webhooks.delete(id);
        }),
      resetSharedSecret: (id) =>
        call('webhooks.resetSharedSecret', () => {
          const found = webhook('webhooks.resetSharedSecret', id);
          found.sharedSecret = `secret-${nextId++}`;
          return { sharedSecret: found.sharedSecret };
        }),
    },
    sheets: {
      listPage: () => call('sheets.listPage', () => page([])),
      list: () => iterate(call('sheets.list', () => [])),
    },
  };

  return {
    api,
    state,
    calls,
    writes: () => calls.filter((operation) => !READ.test(operation)),
    failNext: (operation, error) => void failures.set(operation, error),
  };
}
