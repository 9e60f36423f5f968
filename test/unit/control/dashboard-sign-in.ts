import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { TOKEN } from './control-test-deps.js';

/** A browser's cookie jar for inject(): the cookies responses set, sent back as one Cookie header. */
export interface CookieJar {
  take(response: LightMyRequestResponse): void;
  header(): string;
}

export function createCookieJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    take(response) {
      for (const cookie of response.cookies) cookies.set(cookie.name, cookie.value);
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

/** The CSRF token of the (first) form of a page. */
/** A page's text without its tags, spaces folded: what a person reads. */
export const textOf = (body: string): string => body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

export const csrfOf = (body: string): string => /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';

/** Signs in through the form, as a person does (with `token`, default the control token, landing on `next`); the jar then holds the session and CSRF cookies. */
export async function signIn(app: FastifyInstance, token: string = TOKEN, next = '/batches'): Promise<CookieJar> {
  const jar = createCookieJar();
  const form = await app.inject({ method: 'GET', url: '/login' });
  jar.take(form);
  const response = await app.inject({
    method: 'POST',
    url: '/login',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrfOf(form.body), token, next }).toString(),
  });
  expect(response.statusCode).toBe(303);
  jar.take(response);
  return jar;
}

/** A signed-in GET of a dashboard page; the jar takes what it sets (the CSRF secret of its forms). */
export async function getPage(app: FastifyInstance, jar: CookieJar, url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const response = await app.inject({ method: 'GET', url, headers: { cookie: jar.header(), ...headers } });
  jar.take(response);
  return response;
}

/** A signed-in form post, with the fields given (add `_csrf` to pass the check). */
export async function postForm(app: FastifyInstance, jar: CookieJar, url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
  jar.take(response);
  return response;
}

/** A signed-in multipart form post, as a browser sends a form with a file input (add `_csrf` to pass the check). */
export async function postFile(
  app: FastifyInstance,
  jar: CookieJar,
  url: string,
  fields: Record<string, string>,
  file: { field: string; name: string; content: string; type?: string },
): Promise<LightMyRequestResponse> {
  const boundary = '----seatflowtest7a1c';
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(`--${boundary}\r\ncontent-disposition: form-data; name="${file.field}"; filename="${file.name}"\r\ncontent-type: ${file.type ?? 'text/csv'}\r\n\r\n${file.content}\r\n`);
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { cookie: jar.header(), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `${parts.join('')}--${boundary}--\r\n`,
  });
  jar.take(response);
  return response;
}

/**
 * What a browser does with the answer to a form post: every post of the dashboard answers 303 (post, redirect, get),
 * and the browser GETs where it points; that page is returned (a reload of it sends nothing again).
 */
export async function follow(app: FastifyInstance, jar: CookieJar, posted: LightMyRequestResponse): Promise<LightMyRequestResponse> {
  expect(posted.statusCode, `a form post answers 303, not ${posted.statusCode}: ${posted.body.slice(0, 300)}`).toBe(303);
  return getPage(app, jar, String(posted.headers.location));
}
