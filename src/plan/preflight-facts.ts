import type { AlternateEmail, Column, User, Webhook } from '../contract/index.js';
import type { UserRef } from '../manifest/action.js';
import type { GroupOwnership } from './group-ownership.js';

/** What the pre-flight read from the service, for classifying rows without further calls. */
export interface PreflightFacts {
  caller: { id: number; email: string };
  usersByEmail: ReadonlyMap<string, User>;
  usersById: ReadonlyMap<number, User>;
  /** planId → userId → the user as a plan-filtered listing reports them (seatType of that plan). */
  seats: ReadonlyMap<number, ReadonlyMap<number, User>>;
  /** userId → alternate e-mails, for users of alternate-e-mail rows. */
  alternates: ReadonlyMap<number, readonly AlternateEmail[]>;
  /** sheetId → columns, or 'not-found' when the sheet is not visible to the token. */
  columns: ReadonlyMap<number, readonly Column[] | 'not-found'>;
  /** Every webhook the token can see; undefined when no row needed them. */
  webhooks: ReadonlyMap<number, Webhook> | undefined;
  /** guardrails.protectedAccounts, lower-cased. */
  protectedAccounts: ReadonlySet<string>;
  /** userId → the groups they own, for the users of remove rows whose verdict depends on it (removal-preflight.ts). */
  groupsOwned: ReadonlyMap<number, GroupOwnership>;
  /** When the reading began, on the service's clock (ISO); absent when not known. */
  readAt?: string;
}

/** The users the pre-flight resolved, by e-mail (lower-case) and by id. */
export type KnownUsers = Pick<PreflightFacts, 'usersByEmail' | 'usersById'>;

export function findUser(users: KnownUsers, ref: UserRef): User | undefined {
  return 'userId' in ref ? users.usersById.get(ref.userId) : users.usersByEmail.get(ref.email);
}
