import { createIdGenerator, type IdGenerator } from './ids.js';
import type {
  AppRecord,
  GroupRecord,
  OrgRecord,
  PlanRecord,
  SheetRecord,
  TokenRecord,
  UserRecord,
  WebhookRecord,
} from './records.js';

/**
 * Everything the reference server knows, in maps keyed by id, plus the e-mail index that makes `email=` filters a
 * lookup instead of a scan. Routes change records in place and call the helpers here to keep the index right.
 */
export interface ServerState {
  org: OrgRecord;
  ids: IdGenerator;
  plans: Map<number, PlanRecord>;
  users: Map<number, UserRecord>;
  /** lower-case primary e-mail → user id. */
  usersByEmail: Map<string, number>;
  groups: Map<number, GroupRecord>;
  sheets: Map<number, SheetRecord>;
  webhooks: Map<number, WebhookRecord>;
  apps: Map<string, AppRecord>;
  tokens: Map<string, TokenRecord>;
  /** Bytes of uploaded profile images and attachments, by id; kept only to report sizes. */
  files: Map<string, number>;
  /** The earliest provisional seat that may expire (rules/provisional-expiry.ts); Infinity when none. */
  nextProvisionalExpiry: number;
}

export function createServerState(org: OrgRecord, idSeed: number | string = 'seatflow'): ServerState {
  const ids = createIdGenerator(idSeed);
  ids.reserve(org.id);
  return {
    org,
    ids,
    plans: new Map(),
    users: new Map(),
    usersByEmail: new Map(),
    groups: new Map(),
    sheets: new Map(),
    webhooks: new Map(),
    apps: new Map(),
    tokens: new Map(),
    files: new Map(),
    nextProvisionalExpiry: Number.POSITIVE_INFINITY,
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function addUser(state: ServerState, user: UserRecord): UserRecord {
  state.ids.reserve(user.id);
  state.users.set(user.id, user);
  state.usersByEmail.set(normalizeEmail(user.email), user.id);
  return user;
}

/** Changes a user's primary e-mail and keeps the index in step. */
export function setPrimaryEmail(state: ServerState, user: UserRecord, email: string): void {
  state.usersByEmail.delete(normalizeEmail(user.email));
  user.email = email;
  state.usersByEmail.set(normalizeEmail(email), user.id);
}

export function findUserByEmail(state: ServerState, email: string): UserRecord | undefined {
  const id = state.usersByEmail.get(normalizeEmail(email));
  return id === undefined ? undefined : state.users.get(id);
}

/** The validated domains of every plan the user holds a seat in. */
export function userPlanDomains(state: ServerState, user: UserRecord): string[] {
  return user.seats.flatMap((seat) => state.plans.get(seat.planId)?.domains ?? []);
}
