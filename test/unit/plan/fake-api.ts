import type { ListUsersOptions, PageOptions, SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import { LIST_USERS_MAX_PAGE_SIZE, type AlternateEmail, type Column, type IndexResult, type User, type UserPlan, type Webhook } from '../../../src/contract/index.js';

export interface FakeUser extends User {
  /** planId → seat; the first is the one unfiltered listings report. */
  seats: { planId: number; seatType: NonNullable<User['seatType']>; isInternal?: boolean; unrecognized?: UserPlan['unrecognized'] }[];
  alternates?: AlternateEmail[];
}

export interface FakeOrg {
  me: number;
  users: FakeUser[];
  /** Every list-users call, as asked: tests read the page sizes from it. */
  listCalls?: ListUsersOptions[];
  columns?: Record<number, Column[]>;
  webhooks?: Webhook[];
  /** When set, get user answers include=groups with the groups a user owns (else it leaves `groups` out, as the service may). */
  groups?: { id: number; name: string; ownerId: number }[];
}

function page<T>(items: T[], options: { page?: number; pageSize?: number; includeAll?: boolean }): IndexResult<T> {
  if (options.includeAll === true) return { pageNumber: 1, totalPages: items.length === 0 ? 0 : 1, totalCount: items.length, data: items };
  const pageSize = options.pageSize ?? 100;
  const totalPages = Math.ceil(items.length / pageSize);
  const pageNumber = Math.max(1, Math.min(options.page ?? 1, totalPages));
  return { pageNumber, pageSize, totalPages, totalCount: items.length, data: items.slice((pageNumber - 1) * pageSize, pageNumber * pageSize) };
}

const notFound = () => Object.assign(new Error('Not Found'), { status: 404 });

/** A SmartsheetApi over an in-memory organization: only the reads the pre-flight makes. */
export function createFakeApi(org: FakeOrg): SmartsheetApi {
  const view = (user: FakeUser, planId?: number): User => {
    const { seats, alternates, ...rest } = user;
    void alternates;
    const seat = planId === undefined ? seats[0] : seats.find((s) => s.planId === planId);
    if (seat === undefined) return rest;
    const unrecognized = [...(rest.unrecognized ?? []), ...(seat.unrecognized ?? [])];
    const seatType = seat.unrecognized === undefined ? { seatType: seat.seatType } : {};
    return { ...rest, ...seatType, planId: seat.planId, ...(seat.isInternal === undefined ? {} : { isInternal: seat.isInternal }), ...(unrecognized.length === 0 ? {} : { unrecognized }) };
  };
  const byId = (id: number) => org.users.find((u) => u.id === id);
  const unsupported = () => {
    throw new Error('not used by the pre-flight');
  };
  return {
    users: {
      listPage: async (options: ListUsersOptions = {}) => {
        (org.listCalls ??= []).push(options);
        // As the service: at most 2000 a page (docs/service.md#paging-list-users).
        if ((options.pageSize ?? 100) > LIST_USERS_MAX_PAGE_SIZE || (options as { includeAll?: boolean }).includeAll === true) {
          throw Object.assign(new Error('pageSize above 2000'), { status: 400, errorCode: 1229 });
        }
        let users = org.users;
        if (options.email !== undefined) users = users.filter((u) => options.email!.includes(u.email.toLowerCase()));
        if (options.planId !== undefined) users = users.filter((u) => u.seats.some((s) => s.planId === options.planId));
        return page(users.map((u) => view(u, options.planId)), options);
      },
      listPlansPage: async (id: number) => {
        const user = byId(id);
        if (user === undefined) throw notFound();
        return {
          data: user.seats.map((seat) => ({
            planId: seat.planId,
            ...(seat.unrecognized === undefined ? { seatType: seat.seatType } : { unrecognized: seat.unrecognized }),
            ...(seat.isInternal === undefined ? {} : { isInternal: seat.isInternal }),
          })),
        };
      },
      getCurrent: async () => view(byId(org.me)!),
      get: async (id: number, options: { include?: readonly string[] } = {}) => {
        const user = byId(id);
        if (user === undefined) throw notFound();
        const listGroups = options.include?.includes('groups') === true && org.groups !== undefined;
        return listGroups ? { ...view(user), groups: org.groups!.filter((group) => group.ownerId === id) } : view(user);
      },
    },
    alternateEmails: {
      listPage: async (userId: number, options: PageOptions = {}) => page(byId(userId)?.alternates ?? [], options),
    },
    columns: {
      listPage: async (sheetId: number, options: PageOptions = {}) => {
        const columns = org.columns?.[sheetId];
        if (columns === undefined) throw notFound();
        return page(columns, options);
      },
    },
    webhooks: { listPage: async (options: PageOptions = {}) => page(org.webhooks ?? [], options) },
    discussions: { create: unsupported },
    sheets: { listPage: unsupported },
  } as unknown as SmartsheetApi;
}

/** The demo organization of the brief, in short. */
export function demoOrg(extraUsers = 0): FakeOrg {
  const P1 = 5420192837465012;
  const P2 = 5420192837465013;
  let next = 1000;
  const user = (email: string, rest: Partial<FakeUser> = {}): FakeUser => ({
    id: (next += 1),
    email,
    status: 'ACTIVE',
    admin: false,
    seats: [{ planId: P1, seatType: 'MEMBER' }],
    ...rest,
  });
  const users = [
    user('admin@acme.example', { admin: true }),
    user('dana.whitfield@acme.example', { groupAdmin: true, licensedSheetCreator: true }),
    user('jordan.lee@acme.example'),
    user('priya.shah@acme.example'),
    user('marcus.chen@acme.example', { firstName: 'Marcus' }),
    user('elena.garcia@acme.example', { admin: true }),
    user('sam.taylor@gmail.com'),
    user('taylor.brooks@acme.example', { status: 'DEACTIVATED' }),
    user('casey.nguyen@acme.example', { seats: [{ planId: P1, seatType: 'VIEWER', isInternal: true }] }),
    user('lee.park@partner.example', { seats: [{ planId: P1, seatType: 'CONTRIBUTOR', isInternal: false }] }),
    user('riley.owens@acme.example', { seats: [{ planId: P1, seatType: 'PROVISIONAL_MEMBER' }] }),
    user('jamie.fox@partner.example', { seats: [{ planId: P1, seatType: 'GUEST' }] }),
    user('pat.quinn@acme.example', { status: 'PENDING' }),
    user('chris.morgan@acme.example', { alternates: [{ id: 9001, email: 'chris.m@acme.example', confirmed: true }, { id: 9002, email: 'c.morgan@acme.example', confirmed: false }] }),
    user('noah.fischer@acme.example', { seats: [{ planId: P1, seatType: 'MEMBER' }, { planId: P2, seatType: 'MEMBER' }] }),
  ];
  for (let i = 0; i < extraUsers; i += 1) users.push(user(`user.${i}@acme.example`));
  return {
    me: users[0]!.id,
    users,
    columns: {
      2094857361029384: [
        { id: 1, index: 0, title: 'Asset Tag', type: 'TEXT_NUMBER', primary: true },
        { id: 2, index: 1, title: 'Owner', type: 'CONTACT_LIST' },
        { id: 3, index: 2, title: 'Status', type: 'PICKLIST', options: ['In use', 'Spare', 'Retired'] },
        { id: 4, index: 3, title: 'Start', type: 'DATE', tags: ['GANTT_START_DATE'] },
      ],
    },
    webhooks: [
      { id: 501, enabled: true, status: 'ENABLED' },
      { id: 502, enabled: false, status: 'DISABLED_BY_OWNER' },
      { id: 503, enabled: false, status: 'DISABLED_APP_REVOKED' },
    ],
  };
}
