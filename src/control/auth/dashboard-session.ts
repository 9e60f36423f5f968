import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardSessionStore } from './dashboard-session-store.js';

export const SESSION_COOKIE = 'seatflow_session';
/** A sign-in lasts a working day; signing in again is one form. */
export const SESSION_MS = 12 * 60 * 60 * 1000;

/**
 * The cookie secret, derived from the control token: changing the token signs everyone out, and the token itself
 * never leaves the server in a cookie.
 */
export function cookieSecretOf(token: string): string {
  return createHmac('sha256', token).update('seatflow dashboard cookie v1').digest('base64url');
}

/** The key that binds CSRF tokens to a session (@fastify/csrf-protection's hmacKey), also derived from the token. */
export function csrfKeyOf(token: string): string {
  return createHmac('sha256', token).update('seatflow dashboard csrf v1').digest('base64url');
}

/**
 * Starts a dashboard session: a random id recorded in the session store until it expires, with the operator who signed
 * in (docs/governance.md#operators-and-roles), and an HttpOnly, SameSite=Strict cookie signed with the cookie secret
 * (by @fastify/cookie) holding the id and the expiry. Page script cannot read it, other sites' pages never send it,
 * and signing out ends it on the server (a copy of the cookie is worth nothing afterwards).
 */
export async function startSession(request: FastifyRequest, reply: FastifyReply, store: DashboardSessionStore, operator: string, now = Date.now()): Promise<string> {
  const id = randomBytes(18).toString('base64url');
  const expiresAt = now + SESSION_MS;
  await store.start(id, expiresAt, operator);
  reply.setCookie(SESSION_COOKIE, `s2.${id}.${expiresAt}`, {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: SESSION_MS / 1000,
  });
  return id;
}

/** Ends the request's session on the server and clears its cookie. */
export async function endSession(request: FastifyRequest, reply: FastifyReply, store: DashboardSessionStore): Promise<void> {
  const id = sessionIdOf(request);
  if (id !== undefined) await store.end(id);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/**
 * The session id the request's cookie names, when the cookie was signed by this server and has not expired; whether
 * the session is still open is the store's to say (`isActive`).
 */
export function sessionIdOf(request: FastifyRequest, now = Date.now()): string | undefined {
  const raw = request.cookies?.[SESSION_COOKIE];
  if (raw === undefined) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  const match = /^s2\.([A-Za-z0-9_-]{24})\.(\d+)$/.exec(unsigned.value);
  if (match?.[1] === undefined || Number(match[2]) <= now) return undefined;
  return match[1];
}
