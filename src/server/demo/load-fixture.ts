import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { newSharedSecret } from '../routes/webhooks.js';
import { domainMatches } from '../../contract/index.js';
import { noteProvisionalSeat } from '../rules/provisional-expiry.js';
import { freeSeatOf } from '../rules/seat-lifecycle.js';
import type { CellValue, ColumnRecord, SheetRecord, UserRecord } from '../state/records.js';
import { addUser, createServerState, findUserByEmail, type ServerState } from '../state/server-state.js';
import { fixtureSchema, type ParsedFixture } from './fixture-schema.js';

const DAY = 86_400_000;

/** Parses a fixture from JSON (a file or a /_sim/load body); errors name the path of the bad field. */
export function parseFixture(input: unknown): ParsedFixture {
  const parsed = fixtureSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 10).map((i) => `${i.path.join('.')}: ${i.message}`);
    throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid fixture: ${lines.join('; ')}`);
  }
  return parsed.data;
}

function lookup(state: ServerState, email: string, where: string): UserRecord {
  const user = findUserByEmail(state, email);
  if (user === undefined) throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid fixture: ${where} names unknown user ${email}`);
  return user;
}

/**
 * Builds the whole server state from a fixture. Ids come from the fixture or from the seeded generator in a fixed
 * order, so the same fixture always gives the same ids.
 */
export function loadFixture(fixture: ParsedFixture, now: number, seed: number | string = 'seatflow'): ServerState {
  const state = createServerState({ id: fixture.organization.id, name: fixture.organization.name }, seed);
  for (const item of [...fixture.users, ...fixture.groups, ...fixture.sheets, ...fixture.webhooks]) {
    if (item.id !== undefined) state.ids.reserve(item.id);
  }
  for (const plan of fixture.plans) {
    state.ids.reserve(plan.id);
    state.plans.set(plan.id, { id: plan.id, name: plan.name, domains: plan.domains.map((d) => d.toLowerCase()) });
  }
  const firstPlan = fixture.plans[0];
  for (const app of fixture.apps) state.apps.set(app.id, { ...app });
  for (const u of fixture.users) {
    const seats = u.seats ?? (firstPlan === undefined ? [] : [{ planId: firstPlan.id, seatType: u.seatType ?? 'MEMBER' }]);
    const record: UserRecord = {
      id: u.id ?? state.ids.next(),
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      admin: u.admin,
      licensedSheetCreator: u.licensedSheetCreator,
      groupAdmin: u.groupAdmin,
      resourceViewer: u.resourceViewer,
      status: u.status,
      externallyManaged: u.externallyManaged || u.externalSource !== undefined,
      externalSource: u.externalSource ?? null,
      inOrg: true,
      deactivatedAt: u.status === 'DEACTIVATED' ? now - (u.deactivatedDaysAgo ?? 1) * DAY : null,
      lastLogin: u.lastLoginDaysAgo === undefined ? null : now - u.lastLoginDaysAgo * DAY,
      createdAt: now - (u.invitedDaysAgo ?? 400) * DAY,
      seats: seats.map((s) => {
        const plan = state.plans.get(s.planId);
        const provisional = 'provisionalExpiresInDays' in s ? s.provisionalExpiresInDays : undefined;
        const isInternal = plan === undefined ? false : domainMatches(u.email, plan.domains);
        const stored = s.seatType === 'CONTRIBUTOR' ? 'VIEWER' : s.seatType;
        // A deactivated user holds no Member seat (docs/service.md#seats-follow-the-lifecycle), whatever the fixture says.
        const seatType = u.status === 'DEACTIVATED' && (stored === 'MEMBER' || stored === 'PROVISIONAL_MEMBER') ? freeSeatOf({ isInternal }) : stored;
        const until = seatType === 'PROVISIONAL_MEMBER' ? now + (provisional ?? 30) * DAY : null;
        if (until !== null) noteProvisionalSeat(state, until);
        return { planId: s.planId, seatType, seatTypeLastChangedAt: now - (u.invitedDaysAgo ?? 90) * DAY, provisionalExpirationDate: until, isInternal };
      }),
      alternateEmails: [],
      profileImage: null,
      locale: 'en_US',
      timeZone: 'US/Pacific',
    };
    for (const key of ['title', 'department', 'company'] as const) if (u[key] !== undefined) record[key] = u[key];
    addUser(state, record);
  }
  for (const u of fixture.users) {
    const record = lookup(state, u.email, 'users');
    record.alternateEmails = u.alternateEmails.map((a) => ({ id: state.ids.next(), email: a.email, confirmed: a.confirmed }));
  }
  for (const t of fixture.tokens) {
    const user = lookup(state, t.userEmail, `token ${t.token.slice(0, 4)}…`);
    state.tokens.set(t.token, t.appId === undefined ? { token: t.token, userId: user.id } : { token: t.token, userId: user.id, appId: t.appId });
  }
  for (const g of fixture.groups) {
    const id = g.id ?? state.ids.next();
    const memberIds = g.memberEmails.map((e) => lookup(state, e, `group ${g.name}`).id);
    state.groups.set(id, { id, name: g.name, description: g.description, ownerId: lookup(state, g.ownerEmail, `group ${g.name}`).id, memberIds, createdAt: now - 200 * DAY, modifiedAt: now - 20 * DAY });
  }
  for (const s of fixture.sheets) {
    const sheet = buildSheet(state, s, now);
    state.sheets.set(sheet.id, sheet);
  }
  for (const w of fixture.webhooks) {
    const sheet = w.sheetName === undefined ? undefined : [...state.sheets.values()].find((x) => x.name === w.sheetName);
    const scopeObjectId = w.scope === 'plan' ? (w.planId ?? firstPlan?.id ?? 0) : (sheet?.id ?? 0);
    if (scopeObjectId === 0) throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid fixture: webhook ${w.name} has no scope object`);
    const owner = w.appId !== undefined ? { kind: 'app' as const, appId: w.appId } : { kind: 'user' as const, userId: lookup(state, w.ownerEmail ?? '', `webhook ${w.name}`).id };
    const id = w.id ?? state.ids.next();
    const created = now - w.createdDaysAgo * DAY;
    state.webhooks.set(id, {
      id, name: w.name, callbackUrl: w.callbackUrl, scope: w.scope, scopeObjectId, events: w.events, version: 1,
      enabled: w.status === 'ENABLED', status: w.status, sharedSecret: newSharedSecret(), owner, createdAt: created, modifiedAt: created,
    });
  }
  return state;
}

function buildSheet(state: ServerState, s: ParsedFixture['sheets'][number], now: number): SheetRecord {
  const owner = lookup(state, s.ownerEmail, `sheet ${s.name}`);
  const id = s.id ?? state.ids.next();
  const columns: ColumnRecord[] = s.columns.map((c) => ({
    id: c.id ?? state.ids.next(),
    title: c.title,
    type: c.type,
    primary: c.primary,
    width: c.width,
    hidden: false,
    locked: false,
    validation: false,
    ...(c.options === undefined ? {} : { options: c.options }),
    ...(c.tags === undefined ? {} : { tags: c.tags }),
  }));
  const sharing: SheetRecord['sharing'] = {};
  for (const [email, level] of Object.entries(s.sharing)) sharing[String(lookup(state, email, `sheet ${s.name}`).id)] = level;
  const rows = s.rows.map((values) => {
    const cells: Record<string, CellValue> = {};
    for (const [title, value] of Object.entries(values)) {
      const column = columns.find((c) => c.title === title);
      if (column !== undefined) cells[String(column.id)] = value as CellValue;
    }
    return { id: state.ids.next(), cells };
  });
  const discussions = s.discussions.map((d) => {
    const row = d.rowIndex === undefined ? undefined : rows[d.rowIndex];
    const comments = d.comments.map((c, i) => {
      const at = now - (10 - i) * DAY;
      return { id: state.ids.next(), text: c.text, createdBy: lookup(state, c.authorEmail, `sheet ${s.name}`).id, createdAt: at, modifiedAt: at, attachments: [] };
    });
    return {
      id: state.ids.next(),
      title: d.title ?? (d.comments[0]?.text ?? '').slice(0, 100),
      parentType: row === undefined ? ('SHEET' as const) : ('ROW' as const),
      parentId: row === undefined ? id : row.id,
      createdBy: comments[0]?.createdBy ?? owner.id,
      comments,
    };
  });
  return { id, name: s.name, ownerId: owner.id, dependenciesEnabled: s.dependenciesEnabled, sharing, columns, rows, discussions, version: 1, createdAt: now - 100 * DAY, modifiedAt: now - 5 * DAY };
}
