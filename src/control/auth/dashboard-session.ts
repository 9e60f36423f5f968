import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'seatflow_session';
/** A sign-in lasts a working day; signing in again is one form. */
const SESSION_MS = 12 * 60 * 60 * 1000;

/**
 * The cookie secret, derived from the control token: changing the token signs everyone out, and the token itself
 * never leaves the server in a cookie.
 */
export function cookieSecretOf(token: string): string {
  return createHmac('sha256', token).update('seatflow dashboard cookie v1').digest('base64url');
}

/**
 * Starts a dashboard session: an HttpOnly, SameSite=Strict cookie signed with the cookie secret (by @fastify/cookie),
 * holding its expiry and the name of the operator who signed in (docs/governance.md#operators-and-roles). Page script
 * cannot read it and other sites' pages never send it.
 */
export function startSession(request: FastifyRequest, reply: FastifyReply, operator: string, now = Date.now()): void {
  reply.setCookie(SESSION_COOKIE, `s1.${now + SESSION_MS}.${operator}`, {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: SESSION_MS / 1000,
  });
}

export function endSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The operator of the request's valid, unexpired session cookie; undefined without one. */
export function sessionOperator(request: FastifyRequest, now = Date.now()): string | undefined {
  const raw = request.cookies[SESSION_COOKIE];
  if (raw === undefined) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  const match = /^s1\.(\d+)\.([A-Za-z0-9._@+-]{1,64})$/.exec(unsigned.value);
  return match?.[1] !== undefined && Number(match[1]) > now ? match[2] : undefined;
}
