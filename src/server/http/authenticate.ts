import type { FastifyRequest } from 'fastify';
import type { Principal, ServerContext } from '../server-context.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from './api-error.js';

/** The token of `Authorization: Bearer <token>`, or undefined. The scheme matches in any case. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** 401 1001 without a token, 401 1002 for an unknown one or one whose user has left the organization. */
export function authenticate(server: ServerContext, request: FastifyRequest): Principal {
  const token = bearerToken(request);
  if (token === undefined) {
    throw new ApiError(401, CODES.tokenMissing, 'An Access Token is required.');
  }
  const record = server.state.tokens.get(token);
  const user = record === undefined ? undefined : server.state.users.get(record.userId);
  if (record === undefined || user === undefined) {
    throw new ApiError(401, CODES.tokenInvalid, 'Your Access Token is invalid.');
  }
  return record.appId === undefined ? { token, user } : { token, user, appId: record.appId };
}

/** System Admin: an admin of the organization whose account is active. */
export function isSystemAdmin(principal: Principal): boolean {
  const { user } = principal;
  return user.admin && user.inOrg && user.status === 'ACTIVE';
}
