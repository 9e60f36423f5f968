import { ApiError, SERVER_ERROR_CODES } from './api-error.js';

/** Query values as fastify hands them over: a string, or an array when a key repeats. */
export type QueryValue = string | string[] | undefined;
export type Query = Record<string, QueryValue>;

function first(value: QueryValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Booleans in any case (`true`, `True`, `TRUE`); the official SDKs disagree on case (docs/service.md#transport). */
export function parseBool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(Array.isArray(value) ? value[0] : value).toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw ApiError.badRequest(SERVER_ERROR_CODES.invalidParameterValue, `Invalid value for parameter ${name}: ${text}`);
}

export function queryBool(query: Query, name: string): boolean | undefined {
  return parseBool(first(query[name]), name);
}

/** A comma-joined list; repeated keys are also accepted and joined. */
export function queryList(query: Query, name: string): string[] {
  const raw = query[name];
  if (raw === undefined) return [];
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(','));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The `include` values, lower-cased: the SDKs and the docs spell them in different cases. */
export function queryIncludes(query: Query): Set<string> {
  return new Set(queryList(query, 'include').map((i) => i.toLowerCase()));
}

export function queryInt(query: Query, name: string): number | undefined {
  const text = first(query[name]);
  if (text === undefined || text === '') return undefined;
  if (!/^-?\d+$/.test(text.trim())) {
    throw ApiError.badRequest(SERVER_ERROR_CODES.invalidParameterValue, `Invalid value for parameter ${name}: ${text}`);
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw ApiError.badRequest(SERVER_ERROR_CODES.invalidParameterValue, `Parameter ${name} is out of range`);
  }
  return value;
}

export function queryString(query: Query, name: string): string | undefined {
  const text = first(query[name]);
  return text === undefined || text === '' ? undefined : text;
}

/** A path id: digits only, a safe integer; anything else cannot name a resource, so it is not found. */
export function pathId(value: string | undefined): number {
  if (value === undefined || !/^\d{1,16}$/.test(value)) throw ApiError.notFound();
  const id = Number(value);
  if (!Number.isSafeInteger(id)) throw ApiError.notFound();
  return id;
}
