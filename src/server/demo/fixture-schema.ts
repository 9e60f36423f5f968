import { z } from 'zod';
import { COLUMN_TAGS, COLUMN_TYPES, USER_STATUSES, WEBHOOK_STATUSES } from '../../contract/index.js';

/**
 * The JSON fixture `seatflow sim --data FILE` and `POST /_sim/load` take. People and sheets are referred to by
 * e-mail and name, ids are optional (generated deterministically when absent), and times are given relative to the
 * server's clock (`deactivatedDaysAgo`), so a fixture stays valid whatever day it is loaded.
 */
const id = z.number().int().positive().refine(Number.isSafeInteger, 'id beyond 2^53');
const seatType = z.enum(['MEMBER', 'PROVISIONAL_MEMBER', 'GUEST', 'VIEWER', 'CONTRIBUTOR']);

export const fixtureUserSchema = z.object({
  id: id.optional(),
  email: z.string().min(3),
  firstName: z.string().default(''),
  lastName: z.string().default(''),
  admin: z.boolean().default(false),
  licensedSheetCreator: z.boolean().default(false),
  groupAdmin: z.boolean().default(false),
  resourceViewer: z.boolean().default(false),
  status: z.enum(USER_STATUSES).default('ACTIVE'),
  externallyManaged: z.boolean().default(false),
  /** The identity provider or directory integration that manages the user (e.g. "Okta"); implies externallyManaged. */
  externalSource: z.string().min(1).optional(),
  deactivatedDaysAgo: z.number().min(0).optional(),
  /** Absent: never logged in. */
  lastLoginDaysAgo: z.number().min(0).optional(),
  /** When the user was invited and given their seats (default 400 days ago; seats changed 90 days ago). */
  invitedDaysAgo: z.number().min(0).optional(),
  /** Seats per plan; default: one seat in the first plan, `seatType` or MEMBER. */
  seats: z.array(z.object({ planId: id, seatType, provisionalExpiresInDays: z.number().optional() })).optional(),
  seatType: seatType.optional(),
  alternateEmails: z.array(z.object({ email: z.string(), confirmed: z.boolean().default(true) })).default([]),
  title: z.string().optional(),
  department: z.string().optional(),
  company: z.string().optional(),
});

const cell = z.union([z.string(), z.number(), z.boolean(), z.null(), z.object({ email: z.string(), name: z.string().optional() }), z.array(z.unknown())]);

export const fixtureSheetSchema = z.object({
  id: id.optional(),
  name: z.string().min(1),
  ownerEmail: z.string(),
  dependenciesEnabled: z.boolean().default(false),
  /** e-mail → access level. */
  sharing: z.record(z.string(), z.enum(['ADMIN', 'EDITOR_SHARE', 'EDITOR', 'COMMENTER', 'VIEWER'])).default({}),
  columns: z
    .array(
      z.object({
        id: id.optional(),
        title: z.string().min(1),
        type: z.enum(COLUMN_TYPES),
        primary: z.boolean().default(false),
        options: z.array(z.string()).optional(),
        tags: z.array(z.enum(COLUMN_TAGS)).optional(),
        width: z.number().default(150),
      }),
    )
    .min(1),
  /** Each row: column title → value. */
  rows: z.array(z.record(z.string(), cell)).default([]),
  discussions: z
    .array(
      z.object({
        /** 0-based row the discussion is on; a sheet-level discussion when absent. */
        rowIndex: z.number().int().min(0).optional(),
        title: z.string().optional(),
        comments: z.array(z.object({ text: z.string(), authorEmail: z.string() })).min(1),
      }),
    )
    .default([]),
});

export const fixtureSchema = z.object({
  organization: z.object({ id: id.default(1000000000000001), name: z.string() }),
  plans: z.array(z.object({ id, name: z.string(), domains: z.array(z.string()).default([]) })).min(1),
  apps: z.array(z.object({ id: z.string(), name: z.string() })).default([]),
  users: z.array(fixtureUserSchema).default([]),
  /** Access tokens: a user's own, or one issued to an app acting for the user. */
  tokens: z.array(z.object({ token: z.string().min(1), userEmail: z.string(), appId: z.string().optional() })).default([]),
  groups: z
    .array(z.object({ id: id.optional(), name: z.string(), description: z.string().default(''), ownerEmail: z.string(), memberEmails: z.array(z.string()).default([]) }))
    .default([]),
  sheets: z.array(fixtureSheetSchema).default([]),
  webhooks: z
    .array(
      z.object({
        id: id.optional(),
        name: z.string(),
        callbackUrl: z.string(),
        scope: z.enum(['sheet', 'plan']).default('sheet'),
        /** Sheet name or plan id. */
        sheetName: z.string().optional(),
        planId: id.optional(),
        events: z.array(z.string()).default(['*.*']),
        status: z.enum(WEBHOOK_STATUSES).default('NEW_NOT_VERIFIED'),
        /** Owner: the user of this e-mail, or the app of this id. */
        ownerEmail: z.string().optional(),
        appId: z.string().optional(),
        createdDaysAgo: z.number().min(0).default(0),
      }),
    )
    .default([]),
});

export type Fixture = z.input<typeof fixtureSchema>;
export type ParsedFixture = z.output<typeof fixtureSchema>;
