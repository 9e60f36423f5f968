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
 * holding only its expiry. Page script cannot read it and other sites' pages never send it.
 */
export function startSession(request: FastifyRequest, reply: FastifyReply, now = Date.now()): void {
  reply.setCookie(SESSION_COOKIE, `s1.${now + SESSION_MS}`, {
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

/** Whether the request carries a valid, unexpired session cookie. */
export function hasSession(request: FastifyRequest, now = Date.now()): boolean {
  const raw = request.cookies[SESSION_COOKIE];
  if (raw === undefined) return false;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return false;
  const match = /^s1\.(\d+)$/.exec(unsigned.value);
  return match?.[1] !== undefined && Number(match[1]) > now;
}
