import { describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  InvalidRequestError,
  OtherApiError,
  ResourceNotFoundError,
  ServiceUnavailableError,
} from '../../../src/client/api-error.js';
import { errorFromNetwork, errorFromResponse, errorFromUnreadableSuccess, invalidArgument } from '../../../src/client/error-factory.js';

const TOKEN = 'tok_live_abcdefghijklmnop';
const call = { operation: 'users.deactivate', method: 'POST', secrets: [TOKEN] };
const body = (errorCode: number, message = 'm', refId = 'ref-1') => JSON.stringify({ errorCode, message, refId });

describe('errorFromResponse', () => {
  it.each([
    [400, 1359, InvalidRequestError],
    [405, 1122, InvalidRequestError],
    [406, 1052, InvalidRequestError],
    [409, 1000, InvalidRequestError],
    [410, 4005, InvalidRequestError],
    [415, 1124, InvalidRequestError],
    [401, 1002, AuthorizationError],
    [401, 1003, AuthorizationError],
    [403, 1004, AuthorizationError],
    // docs/service.md#errors: every 403 but 1004 is a refusal of that one request.
    [403, 1335, InvalidRequestError],
    [403, 1336, InvalidRequestError],
    [403, 1354, InvalidRequestError],
    [403, 1355, InvalidRequestError],
    [403, 1359, InvalidRequestError],
    [403, 1016, InvalidRequestError],
    [403, 1014, InvalidRequestError],
    [403, 1139, InvalidRequestError],
    [403, 1021, InvalidRequestError],
    [403, 1022, InvalidRequestError],
    [403, 1047, InvalidRequestError],
    [403, 1049, InvalidRequestError],
    [403, 1039, InvalidRequestError],
    [403, 1081, InvalidRequestError],
    [403, 1097, InvalidRequestError],
    [403, 1153, InvalidRequestError],
    [403, 1186, InvalidRequestError],
    [403, 9002, InvalidRequestError],
    [404, 1006, ResourceNotFoundError],
    [429, 4003, ServiceUnavailableError],
    [500, 4000, ServiceUnavailableError],
    [502, 4000, ServiceUnavailableError],
    [503, 4001, ServiceUnavailableError],
    [504, 4002, ServiceUnavailableError],
    [501, 1119, OtherApiError],
    [418, 1, OtherApiError],
  ])('maps HTTP %i (errorCode %i) to its category', (status, errorCode, type) => {
    const error = errorFromResponse({ ...call, status, bodyText: body(errorCode) });
    expect(error).toBeInstanceOf(type);
    expect(error.status).toBe(status);
    expect(error.errorCode).toBe(errorCode);
    expect(error.refId).toBe('ref-1');
    expect(error.operation).toBe('users.deactivate');
    expect(error.method).toBe('POST');
  });

  it('keeps a 403 without a readable errorCode as Authorization (cannot tell a refusal from a refused token)', () => {
    const error = errorFromResponse({ ...call, status: 403, bodyText: '<html>Forbidden</html>' });
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error.errorCode).toBeUndefined();
  });

  it('does not retry a 403 refusal and says it did not apply', () => {
    const error = errorFromResponse({ ...call, status: 403, bodyText: body(1359) });
    expect(error.category).toBe('InvalidRequest');
    expect(error.retryable).toBe(false);
    expect(error.mayHaveApplied).toBe(false);
  });

  it('keeps the service message, status, code and refId in the message', () => {
    const error = errorFromResponse({ ...call, status: 400, bodyText: body(1359, 'ISP domain e-mails cannot be deactivated.', 'abc') });
    expect(error.message).toBe('users.deactivate: ISP domain e-mails cannot be deactivated. (HTTP 400, errorCode 1359, refId abc)');
    expect(error.retryable).toBe(false);
    expect(error.mayHaveApplied).toBe(false);
  });

  it('marks 429 retryable with Retry-After, rate limited, and not applied', () => {
    const error = errorFromResponse({ ...call, status: 429, bodyText: body(4003), retryAfterMs: 5_000 }) as ServiceUnavailableError;
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(5_000);
    expect(error.rateLimited).toBe(true);
    expect(error.mayHaveApplied).toBe(false);
  });

  it('leaves retryAfterMs undefined when the answer has no Retry-After', () => {
    expect(errorFromResponse({ ...call, status: 429, bodyText: body(4003) }).retryAfterMs).toBeUndefined();
  });

  it('says a write answered 500 may have applied, but not maintenance 503/4001 nor a GET', () => {
    expect(errorFromResponse({ ...call, status: 500, bodyText: body(4000) }).mayHaveApplied).toBe(true);
    expect(errorFromResponse({ ...call, status: 502, bodyText: 'Bad Gateway' }).mayHaveApplied).toBe(true);
    expect(errorFromResponse({ ...call, status: 503, bodyText: body(4001) }).mayHaveApplied).toBe(false);
    expect(errorFromResponse({ ...call, method: 'GET', status: 500, bodyText: body(4000) }).mayHaveApplied).toBe(false);
  });

  it('marks a 500 with a permanent errorCode not retryable', () => {
    expect(errorFromResponse({ ...call, status: 500, bodyText: body(1119) }).retryable).toBe(false);
    expect(errorFromResponse({ ...call, status: 500, bodyText: body(4004) }).retryable).toBe(true);
    expect(errorFromResponse({ ...call, status: 500, bodyText: '' }).retryable).toBe(true);
  });

  it('describes a body that is not an API error', () => {
    const error = errorFromResponse({ ...call, status: 502, bodyText: '<html>Bad Gateway</html>' });
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.errorCode).toBeUndefined();
    expect(error.message).toContain('HTTP 502 with a body that is not an API error: <html>Bad Gateway</html>');
  });

  it('never repeats the token, even when the service echoes it', () => {
    const error = errorFromResponse({ ...call, status: 401, bodyText: body(1002, `Invalid token: Bearer ${TOKEN} (${TOKEN})`) });
    expect(error.message).not.toContain(TOKEN);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(error.message).toContain('[REDACTED]');
  });
});

describe('errorFromNetwork', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
  const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
  const headersTimeout = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });

  it('maps a refused connection to ServiceUnavailable that cannot have applied', () => {
    const error = errorFromNetwork({ ...call, error: refused, sent: true });
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.retryable).toBe(true);
    expect(error.mayHaveApplied).toBe(false);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('finds the code inside an AggregateError of a multi-address connect', () => {
    const error = errorFromNetwork({ ...call, error: new AggregateError([refused], 'connect failed'), sent: true });
    expect(error.mayHaveApplied).toBe(false);
  });

  it('says a write reset or timed out after sending may have applied', () => {
    expect(errorFromNetwork({ ...call, error: reset, sent: true }).mayHaveApplied).toBe(true);
    expect(errorFromNetwork({ ...call, error: headersTimeout, sent: true }).mayHaveApplied).toBe(true);
    expect(errorFromNetwork({ ...call, method: 'GET', error: headersTimeout, sent: true }).mayHaveApplied).toBe(false);
  });

  it('maps an abort by the caller to a non-retryable Other', () => {
    const error = errorFromNetwork({ ...call, error: new Error('aborted'), sent: false, abortedByCaller: true });
    expect(error).toBeInstanceOf(OtherApiError);
    expect(error.retryable).toBe(false);
    expect(error.mayHaveApplied).toBe(false);
  });
});

describe('errorFromUnreadableSuccess', () => {
  it('is Other, and a write that got a 2xx did apply', () => {
    const error = errorFromUnreadableSuccess({ ...call, status: 200, reason: 'it is not JSON' });
    expect(error).toBeInstanceOf(OtherApiError);
    expect(error.mayHaveApplied).toBe(true);
    expect(error.message).toBe('users.deactivate: the response could not be read: it is not JSON');
  });
});

describe('invalidArgument', () => {
  it('is raised with the operation and is never retryable', () => {
    const error = invalidArgument('users.get', 'userId is required');
    expect(error.category).toBe('InvalidArgument');
    expect(error.retryable).toBe(false);
    expect(error.toJSON()).toMatchObject({ category: 'InvalidArgument', operation: 'users.get', message: 'users.get: userId is required' });
  });
});
