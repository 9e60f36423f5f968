import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthorizationError,
  InvalidArgumentError,
  InvalidRequestError,
  OtherApiError,
  ResourceNotFoundError,
  ServiceUnavailableError,
} from '../../src/client/api-error.js';
import { useContractServer } from '../helpers/contract-server.js';

const PLAN = 5420192837465012;
const MISSING_ID = 1234567890123456;

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const server = useContractServer();
afterEach(() => {
  server().sim.faults.configure('');
  server().sim.rateLimiter.configure('off');
});

describe('error categories (contract)', () => {
  it('raises InvalidArgument before sending anything', async () => {
    let sent = 0;
    const counted = server().client(server().sim.tokens.admin, { beforeRequest: async () => void (sent += 1) });
    for (const call of [
      counted.users.get(null as unknown as number),
      counted.users.add({ email: '' }),
      counted.alternateEmails.add(1, []),
      counted.discussions.create(1, { comment: { text: '' } }),
      counted.columns.add(1, []),
      counted.users.downgrade(1, PLAN, { seatType: 'MEMBER' as 'VIEWER' }),
      counted.webhooks.get(-5),
    ]) {
      expect(await failure(call)).toBeInstanceOf(InvalidArgumentError);
    }
    expect(sent).toBe(0);
    expect(server().sim.mutations.list()).toEqual([]);
  });

  it('raises InvalidRequest for a 403 refusal of one request, with its status and errorCode', async () => {
    const sam = await server().userId('sam.taylor@gmail.com');
    const isp = await failure(server().admin.users.deactivate(sam));
    expect(isp).toBeInstanceOf(InvalidRequestError);
    expect(isp).toMatchObject({ status: 403, errorCode: 1359, operation: 'users.deactivate', retryable: false, mayHaveApplied: false });
    expect(isp.refId).toBeTruthy();
  });

  // One case per refusal family of docs/service.md#refusal-codes; each is a refusal of that request, never of the token.
  it.each([
    ['deactivate yourself', 1336, async () => server().admin.users.deactivate(await server().userId('admin@acme.example'))],
    ['reactivate yourself', 1355, async () => server().admin.users.reactivate(await server().userId('admin@acme.example'))],
    ['deactivate a pending (non-member) user', 1335, async () => server().admin.users.deactivate(await server().userId('pat.quinn@acme.example'))],
    ['add an existing member', 1016, async () => server().admin.users.add({ email: 'marcus.chen@acme.example' })],
    ['remove yourself', 1047, async () => server().admin.users.remove(await server().userId('admin@acme.example'))],
    ['deactivate an externally managed user', 9002, async () => server().admin.users.deactivate(await server().userId('alex.kim@acme.example'))],
    ['deactivate an e-mail outside the plan domains', 9001, async () => server().admin.users.deactivate(await server().userId('jamie.fox@partner.example'))],
    ['reactivate after the window', 9003, async () => server().admin.users.reactivate(await server().userId('morgan.price@acme.example'))],
    ['downgrade an admin without removeAdminStatus', 9004, async () => server().admin.users.downgrade(await server().userId('elena.garcia@acme.example'), PLAN, { seatType: 'CONTRIBUTOR' })],
    ['downgrade an internal user to GUEST', 9005, async () => server().admin.users.downgrade(await server().userId('marcus.chen@acme.example'), PLAN, { seatType: 'GUEST' })],
    ['change licensedSheetCreator of a user who is not a System Admin', 9006, async () => server().admin.users.update(await server().userId('marcus.chen@acme.example'), { licensedSheetCreator: false })],
    ['remove a user managed by an external source', 9002, async () => server().admin.users.remove(await server().userId('alex.kim@acme.example'))],
    ['upgrade an internal user to GUEST', 9005, async () => server().admin.users.upgrade(await server().userId('casey.nguyen@acme.example'), PLAN, { seatType: 'GUEST' })],
  ])('raises InvalidRequest (403) to %s (errorCode %i)', async (_what, errorCode, call) => {
    const error = await failure(call());
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 403, errorCode, retryable: false, mayHaveApplied: false });
  });

  it('raises InvalidRequest (403 1354) to reactivate a user who left, and 1021/1022 for transfer and remove', async () => {
    const marcus = await server().userId('marcus.chen@acme.example');
    await server().admin.users.remove(marcus);
    expect(await failure(server().admin.users.reactivate(marcus))).toMatchObject({ category: 'InvalidRequest', status: 403, errorCode: 1354 });
    expect(await failure(server().admin.users.remove(marcus))).toMatchObject({ category: 'InvalidRequest', status: 403, errorCode: 1022 });
    const priya = await server().userId('priya.shah@acme.example');
    expect(await failure(server().admin.users.remove(priya, { transferTo: marcus }))).toMatchObject({ category: 'InvalidRequest', status: 403, errorCode: 1021 });
  });

  it('raises Authorization for a bad token and for a non-admin, and never shows the token', async () => {
    const token = 'not-a-real-token-0123456789';
    const bad = await failure(server().client(token).users.getCurrent());
    expect(bad).toBeInstanceOf(AuthorizationError);
    expect(bad).toMatchObject({ status: 401, errorCode: 1002 });
    expect(bad.message).not.toContain(token);
    expect(JSON.stringify(bad)).not.toContain(token);

    const marcus = await server().userId('marcus.chen@acme.example');
    const forbidden = await failure(server().user.users.deactivate(marcus));
    expect(forbidden).toBeInstanceOf(AuthorizationError);
    expect(forbidden).toMatchObject({ status: 403, errorCode: 1004 });
    expect(forbidden.message).not.toContain(server().sim.tokens.user);
  });

  it('raises ResourceNotFound for a user that does not exist', async () => {
    const missing = await failure(server().admin.users.deactivate(MISSING_ID));
    expect(missing).toBeInstanceOf(ResourceNotFoundError);
    expect(missing).toMatchObject({ status: 404, errorCode: 1006 });
  });

  it('raises ServiceUnavailable with Retry-After when rate limited', async () => {
    server().sim.rateLimiter.configure({ requests: 1, perSeconds: 60 });
    await server().admin.users.getCurrent();
    const limited = await failure(server().admin.users.getCurrent());
    expect(limited).toBeInstanceOf(ServiceUnavailableError);
    expect((limited as ServiceUnavailableError).rateLimited).toBe(true);
    expect(limited).toMatchObject({ status: 429, errorCode: 4003, retryable: true, mayHaveApplied: false });
    expect(limited.retryAfterMs).toBeGreaterThan(0);
  });

  it('raises ServiceUnavailable for a 503 and for a cut connection', async () => {
    server().sim.faults.configure('503:1');
    expect(await failure(server().admin.users.getCurrent())).toMatchObject({ category: 'ServiceUnavailable', status: 503, retryable: true });
    server().sim.faults.configure('reset:1');
    const cut = await failure(server().admin.users.getCurrent());
    expect(cut).toBeInstanceOf(ServiceUnavailableError);
    expect(cut.status).toBeUndefined();
  });

  it('says a write answered 500 after it was applied may have applied, and it did', async () => {
    const marcus = await server().userId('marcus.chen@acme.example');
    server().sim.faults.configure('500-after:1');
    const ambiguous = await failure(server().admin.users.deactivate(marcus));
    expect(ambiguous).toBeInstanceOf(ServiceUnavailableError);
    expect(ambiguous.mayHaveApplied).toBe(true);
    server().sim.faults.configure('');
    expect((await server().admin.users.get(marcus)).status).toBe('DEACTIVATED');
  });

  it('raises Other for a status outside the categories', async () => {
    server().sim.faults.configure('501:1');
    const other = await failure(server().admin.users.getCurrent());
    expect(other).toBeInstanceOf(OtherApiError);
    expect(other.status).toBe(501);
  });

  it('retries an idempotent call with the opt-in policy, and not a POST', async () => {
    const retrying = server().client(server().sim.tokens.admin, {
      retry: { maxAttempts: 3, baseDelayMs: 1 },
      // The fault clears after the first answer, so the retry meets a healthy server.
      onResponse: (info) => {
        if (info.status === 503) server().sim.faults.configure('');
      },
    });
    server().sim.faults.configure('503:1');
    expect((await retrying.users.getCurrent()).email).toBe('admin@acme.example');

    const marcus = await server().userId('marcus.chen@acme.example');
    server().sim.faults.configure('503:1');
    expect(await failure(retrying.users.deactivate(marcus))).toBeInstanceOf(ServiceUnavailableError);
    // A retry would have met the healthy server and deactivated Marcus.
    expect((await server().admin.users.get(marcus)).status).toBe('ACTIVE');
  });
});
