import { buildReferenceServer, type ReferenceServer } from '../../../src/server/index.js';
import type { ReferenceServerOptions } from '../../../src/server/index.js';

/** A built (not listening) reference server and a small inject() helper for the server's unit tests. */
export interface TestServer extends ReferenceServer {
  call(method: string, url: string, options?: CallOptions): Promise<CallResult>;
  userId(email: string): number;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

export interface CallResult {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
}

export function createTestServer(options: ReferenceServerOptions = {}): TestServer {
  const server = buildReferenceServer({ rateLimit: 'off', users: 20, ...options });
  const call = async (method: string, url: string, o: CallOptions = {}): Promise<CallResult> => {
    const token = o.token === undefined ? server.tokens.admin : o.token;
    const headers: Record<string, string> = { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...o.headers };
    let payload = o.payload;
    if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await server.app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    let body: Record<string, unknown> = {};
    try {
      body = response.body === '' ? {} : (JSON.parse(response.body) as Record<string, unknown>);
    } catch {
      body = { raw: response.body };
    }
    return { status: response.statusCode, body, headers: response.headers };
  };
  const userId = (email: string): number => {
    const id = server.context.state.usersByEmail.get(email);
    if (id === undefined) throw new Error(`no user ${email}`);
    return id;
  };
  return { ...server, call, userId };
}

export const DAY = 86_400_000;
