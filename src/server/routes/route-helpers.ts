import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { pathId, queryBool } from '../http/query.js';
import { isPastViewerSunset } from '../../contract/index.js';
import type { RouteContext } from '../server-context.js';
import type { AccessLevel, SheetRecord, UserRecord } from '../state/records.js';

/** `{message:"SUCCESS", resultCode:0, result?}`: every write answers 200 with it (docs/service.md#envelopes). */
export function success(result?: unknown, version?: number): Record<string, unknown> {
  const body: Record<string, unknown> = { message: 'SUCCESS', resultCode: 0 };
  if (result !== undefined) body.result = result;
  if (version !== undefined) body.version = version;
  return body;
}

/** The JSON body as an object; no body is an empty object, anything else than an object is 400 1008. */
export function bodyObject(ctx: RouteContext): Record<string, unknown> {
  const { body } = ctx;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) {
    throw ApiError.badRequest(CODES.unparsable, 'Unable to parse request: a JSON object was expected.');
  }
  return body as Record<string, unknown>;
}

/** A boolean attribute of a body; `"true"`/`"True"` strings are taken too, as some SDKs send them. */
export function bodyBool(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid value for attribute ${name}.`);
}

export function bodyString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw ApiError.badRequest(CODES.invalidAttributeValue, `Attribute ${name} must be a string.`);
  return value;
}

/** Whether the VIEWER seat is retired by the server's clock (docs/service.md#seat-types). */
export function pastViewerSunset(ctx: RouteContext): boolean {
  return isPastViewerSunset(ctx.server.clock.now(), ctx.server.settings.viewerSunsetAt);
}

/**
 * Whether answers name the VIEWER seat CONTRIBUTOR: always past the sunset, before it only with
 * `displayContributorSeatType=true` (docs/service.md#seat-types).
 */
export function reportsContributor(ctx: RouteContext): boolean {
  return pastViewerSunset(ctx) || (queryBool(ctx.query, 'displayContributorSeatType') ?? false);
}

/** A user of the organization named by a path parameter, or 404. */
export function requireUser(ctx: RouteContext, param = 'userId'): UserRecord {
  const user = ctx.server.state.users.get(pathId(ctx.params[param]));
  if (user === undefined || !user.inOrg) throw ApiError.notFound('User not found.');
  return user;
}

const LEVEL_RANK: Record<AccessLevel, number> = { VIEWER: 1, COMMENTER: 2, EDITOR: 3, EDITOR_SHARE: 4, ADMIN: 5, OWNER: 6 };

export function accessLevelOf(sheet: SheetRecord, user: UserRecord): AccessLevel | undefined {
  if (sheet.ownerId === user.id) return user.inOrg ? 'OWNER' : 'VIEWER';
  const shared = sheet.sharing[String(user.id)];
  // A user removed from the organization keeps read-only access (docs/service.md#remove-user).
  if (shared !== undefined && !user.inOrg) return 'VIEWER';
  return shared;
}

/** The sheet named by `:sheetId`, if the caller has at least `needed` access; 404 when unseen, 403 when too low. */
export function requireSheet(ctx: RouteContext, needed: AccessLevel): { sheet: SheetRecord; level: AccessLevel } {
  const sheet = ctx.server.state.sheets.get(pathId(ctx.params.sheetId));
  if (sheet === undefined) throw ApiError.notFound('Sheet not found.');
  const level = accessLevelOf(sheet, ctx.principal.user);
  if (level === undefined) throw ApiError.notFound('Sheet not found.');
  if (LEVEL_RANK[level] < LEVEL_RANK[needed]) throw ApiError.forbidden();
  return { sheet, level };
}
