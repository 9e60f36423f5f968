import { afterEach, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import {
  ApiError,
  AuthorizationError,
  InvalidArgumentError,
  OtherApiError,
  ServiceUnavailableError,
} from '../../../src/client/api-error.js';
import type { BeforeRequestInfo, ResponseInfo, SmartsheetClientOptions } from '../../../src/client/smartsheet-client-options.js';
import { SEATFLOW_VERSION } from '../../../src/core/version.js';
import { collect } from '../../helpers/collect.js';
import { startStubHttpServer, type StubAnswer, type StubHttpServer } from '../../helpers/stub-http-server.js';

const TOKEN = 'secret-token-0123456789abcdef';
const user = { id: 4583173393803140, email: 'dana.whitfield@acme.example' };
const page = (data: unknown[], pageNumber: number, totalPages: number) => ({ pageNumber, pageSize: 2, totalPages, totalCount: 99, data });

let server: StubHttpServer | undefined;
let client: SmartsheetClient | undefined;

async function setup(answer: (url: string, index: number) => StubAnswer, options: Partial<SmartsheetClientOptions> = {}) {
  server = await startStubHttpServer((request, index) => answer(request.url, index));
  client = createSmartsheetClient({ baseUrl: server.url, accessToken: TOKEN, ...options });
  return { server, client };
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('transport', () => {
  it('sends the token, User-Agent, integration source and change agent on every call', async () => {
    const { server, client } = await setup(() => ({ body: user }), { changeAgent: 'hr-sync', integrationOrg: 'Acme, Corp' });
    await client.users.get(4583173393803140);
    const headers = server.requests[0]!.headers;
    expect(server.requests[0]!.url).toBe('/2.0/users/4583173393803140');
    expect(headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(headers['user-agent']).toBe(`seatflow/${SEATFLOW_VERSION} node/${process.version}`);
    expect(headers['smartsheet-integration-source']).toBe('SCRIPT,Acme  Corp,seatflow');
    expect(headers['smartsheet-change-agent']).toBe('hr-sync');
    expect(headers.accept).toBe('application/json');
  });

  it('sends JSON bodies with Content-Type and options as query parameters', async () => {
    const { server, client } = await setup(() => ({ body: { message: 'SUCCESS', resultCode: 0, result: user } }));
    await client.users.add({ email: 'new@acme.example', firstName: 'New' }, { sendEmail: true, allowInviteAccountAdmin: false });
    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/2.0/users?sendEmail=true&allowInviteAccountAdmin=false');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body.toString())).toEqual({ email: 'new@acme.example', firstName: 'New' });
  });

  it('reads `data: [user]` as well as `result: user` from update user', async () => {
    const { client } = await setup((_, index) => ({
      body: index === 0 ? { message: 'SUCCESS', resultCode: 0, result: user } : { message: 'SUCCESS', resultCode: 0, data: [user] },
    }));
    expect(await client.users.update(user.id, { firstName: 'Dana' })).toEqual(user);
    expect(await client.users.update(user.id, { firstName: 'Dana' })).toEqual(user);
  });

  it('refuses an id beyond 2^53 in a response instead of rounding it', async () => {
    const { client } = await setup(() => ({ body: '{"id":9007199254740993,"email":"x@acme.example"}' }));
    const error = await caught(client.users.get(1));
    expect(error).toBeInstanceOf(OtherApiError);
    expect(error.message).toContain('9007199254740993');
    expect(error.message).toContain('beyond 2^53');
  });

  it('refuses an unsafe id argument before sending', async () => {
    const { server, client } = await setup(() => ({ body: user }));
    const error = await caught(client.users.get(2 ** 53 + 2));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(server.requests).toHaveLength(0);
  });

  it('raises Other with a clear message when a 2xx does not match the wire', async () => {
    const { client } = await setup(() => ({ body: { id: 'not-a-number' } }));
    const error = await caught(client.users.get(1));
    expect(error).toBeInstanceOf(OtherApiError);
    expect(error.message).toMatch(/users\.get: the response could not be read: it does not match the wire/);
  });

  it('never lets the token into an error, its JSON, or its cause', async () => {
    const { client } = await setup(() => ({ status: 401, body: { errorCode: 1002, message: `Token ${TOKEN} is invalid`, refId: 'r' } }));
    const error = await caught(client.users.getCurrent());
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error.message).not.toContain(TOKEN);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(String(error.stack)).not.toContain(TOKEN);
  });

  it('awaits beforeRequest before every call, each page included, and reports every answer', async () => {
    const before: BeforeRequestInfo[] = [];
    const answers: ResponseInfo[] = [];
    const { client } = await setup((_, index) => ({ body: page(index < 2 ? [user, user] : [user], index + 1, 3) }), {
      beforeRequest: async (call) => {
        before.push(call);
      },
      onResponse: (info) => answers.push(info),
    });
    const all = await collect(client.users.list({ pageSize: 2 }));
    expect(all).toHaveLength(5);
    expect(before.map((call) => [call.operation, call.method, call.cost])).toEqual([
      ['users.list', 'GET', 1],
      ['users.list', 'GET', 1],
      ['users.list', 'GET', 1],
    ]);
    expect(answers.map((info) => info.status)).toEqual([200, 200, 200]);
  });

  it('passes what beforeRequest throws to the caller unchanged, without sending', async () => {
    const budgetError = new Error('budget exhausted');
    const { server, client } = await setup(() => ({ body: user }), { beforeRequest: async () => Promise.reject(budgetError) });
    await expect(client.users.get(1)).rejects.toBe(budgetError);
    expect(server.requests).toHaveLength(0);
  });

  it('gives errorCode and retryAfterMs to onResponse and the error on a 429', async () => {
    const answers: ResponseInfo[] = [];
    const { client } = await setup(() => ({ status: 429, headers: { 'retry-after': '4' }, body: { errorCode: 4003, message: 'Rate limit exceeded.', refId: 'r' } }), {
      onResponse: (info) => answers.push(info),
    });
    const error = await caught(client.users.get(1));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).rateLimited).toBe(true);
    expect(error.retryAfterMs).toBe(4_000);
    expect(answers[0]).toMatchObject({ operation: 'users.get', status: 429, errorCode: 4003, retryAfterMs: 4_000 });
  });

  it("gives the answer's Date header to onResponse, as the service's time", async () => {
    const answers: ResponseInfo[] = [];
    const { client } = await setup(() => ({ headers: { date: 'Tue, 24 Nov 2026 05:00:07 GMT' }, body: user }), { onResponse: (info) => answers.push(info) });
    await client.users.get(1);
    expect(answers[0]?.serviceDateMs).toBe(Date.UTC(2026, 10, 24, 5, 0, 7));
  });

  it('does not retry by default', async () => {
    const { server, client } = await setup(() => ({ status: 503, body: { errorCode: 4001, message: 'maintenance', refId: 'r' } }));
    await caught(client.users.get(1));
    expect(server.requests).toHaveLength(1);
  });

  it('retries an idempotent call with the opt-in policy, calling beforeRequest for each attempt', async () => {
    let before = 0;
    const { server, client } = await setup(
      (_, index) => (index < 2 ? { status: 429, headers: { 'retry-after': '0' }, body: { errorCode: 4003, message: 'slow down', refId: 'r' } } : { body: user }),
      { retry: { maxAttempts: 3 }, beforeRequest: async () => void (before += 1) },
    );
    expect(await client.users.get(1)).toEqual(user);
    expect(server.requests).toHaveLength(3);
    expect(before).toBe(3);
  });

  it('never retries a POST, even with the opt-in policy', async () => {
    const { server, client } = await setup(() => ({ status: 500, headers: { 'retry-after': '0' }, body: { errorCode: 4000, message: 'boom', refId: 'r' } }), {
      retry: { maxAttempts: 5 },
    });
    const error = await caught(client.users.deactivate(1));
    expect(error.mayHaveApplied).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('maps a headers timeout on a write to ServiceUnavailable that may have applied', async () => {
    const { client } = await setup(() => ({ hang: true }), { timeouts: { headersMs: 200 } });
    const error = await caught(client.users.deactivate(1));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.mayHaveApplied).toBe(true);
    expect(error.message).toContain('UND_ERR_HEADERS_TIMEOUT');
  });

  it('maps a connection cut without an answer to ServiceUnavailable', async () => {
    const { client } = await setup(() => ({ destroy: true }));
    const error = await caught(client.users.reactivate(1));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.mayHaveApplied).toBe(true);
  });

  it('maps a refused connection to ServiceUnavailable that cannot have applied', async () => {
    const { server, client: first } = await setup(() => ({ body: user }));
    await first.close();
    await server.close();
    client = createSmartsheetClient({ baseUrl: server.url, accessToken: TOKEN });
    const error = await caught(client.users.deactivate(1));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.mayHaveApplied).toBe(false);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('does not retry a base URL that has never answered and cannot be reached, and names it', async () => {
    const { server, client: first } = await setup(() => ({ body: user }));
    await first.close();
    await server.close();
    let attempts = 0;
    client = createSmartsheetClient({ baseUrl: server.url, accessToken: TOKEN, retry: { maxAttempts: 5, baseDelayMs: 1 }, beforeRequest: async () => void (attempts += 1) });
    const error = await caught(client.users.getCurrent());
    expect(error.unreachable).toBe(true);
    expect(error.message).toContain(`users.getCurrent: cannot reach ${server.url} (ECONNREFUSED)`);
    expect(attempts).toBe(1);
  });

  it('retries a base URL that cannot be reached once it has answered before: a passing fault', async () => {
    let attempts = 0;
    const { server, client } = await setup(() => ({ body: user }), { retry: { maxAttempts: 3, baseDelayMs: 1 }, beforeRequest: async () => void (attempts += 1) });
    await client.users.getCurrent();
    await server.close();
    const error = await caught(client.users.getCurrent());
    expect(error.unreachable).toBe(true);
    expect(attempts).toBe(1 + 3);
  });

  it('stops a call when its AbortSignal fires', async () => {
    const { client } = await setup(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = caught(client.users.get(1, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const error = await pending;
    expect(error).toBeInstanceOf(OtherApiError);
    expect(error.message).toBe('users.get: aborted by the caller');
  });

  it('does not send when the signal has already fired', async () => {
    const { server, client } = await setup(() => ({ body: user }));
    await caught(client.users.get(1, { signal: AbortSignal.abort() }));
    expect(server.requests).toHaveLength(0);
  });

  it('refuses to build without a token', () => {
    expect(() => createSmartsheetClient({ accessToken: '' })).toThrow(InvalidArgumentError);
  });

  it('refuses header values with line breaks when built, not at the first call', () => {
    expect(() => createSmartsheetClient({ accessToken: 't0k3n-abc', changeAgent: 'a\r\nX-Evil: 1' })).toThrow(/changeAgent must be printable/);
  });
});
