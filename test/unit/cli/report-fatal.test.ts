import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { reportFatal } from '../../../src/cli/report-fatal.js';
import { SeatflowError, UsageError } from '../../../src/core/seatflow-error.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  return {
    stream: new Writable({ write: (chunk, _e, done) => ((text += String(chunk)), done()) }),
    text: () => text,
  };
}

describe('reportFatal', () => {
  it('prints a refused input with its hint and exits 2', () => {
    const out = sink();
    expect(reportFatal(new UsageError('bad flag', 'use --help'), out.stream)).toBe(2);
    expect(out.text()).toBe('seatflow: bad flag\n  use --help\n');
  });

  it('exits 1 for other seatflow errors', () => {
    const out = sink();
    expect(reportFatal(new SeatflowError('REDIS_DOWN', 'Redis is not reachable'), out.stream)).toBe(1);
    expect(out.text()).toContain('Redis is not reachable');
  });

  it('prints unexpected errors with their stack', () => {
    const out = sink();
    expect(reportFatal(new Error('boom'), out.stream)).toBe(1);
    expect(out.text()).toContain('unexpected error');
    expect(out.text()).toContain('boom');
  });
});

describe('reportFatal with API errors', () => {
  it('treats a refused token as refused configuration: exit 2 and what to check', async () => {
    const { AuthorizationError } = await import('../../../src/client/api-error.js');
    const out = sink();
    const error = new AuthorizationError({ operation: 'users.getCurrent', message: 'Your Access Token is invalid.', status: 401, errorCode: 1002 });
    expect(reportFatal(error, out.stream)).toBe(2);
    expect(out.text()).toContain('SMARTSHEET_ACCESS_TOKEN');
  });

  it('says nothing was changed when the service is unavailable, and exits 1', async () => {
    const { ServiceUnavailableError } = await import('../../../src/client/api-error.js');
    const out = sink();
    const error = new ServiceUnavailableError({ operation: 'users.list', message: 'Internal Server Error', status: 500, errorCode: 4000 });
    expect(reportFatal(error, out.stream)).toBe(1);
    expect(out.text()).toContain('nothing was changed');
  });

  it('names SMARTSHEET_API_BASE, the regions and seatflow doctor when the base URL cannot be reached', async () => {
    const { ServiceUnavailableError } = await import('../../../src/client/api-error.js');
    const out = sink();
    const error = new ServiceUnavailableError({ operation: 'users.getCurrent', method: 'GET', message: 'users.getCurrent: cannot reach https://api.smartsheet.invalid/2.0 (ENOTFOUND): getaddrinfo ENOTFOUND', networkCode: 'ENOTFOUND' });
    expect(reportFatal(error, out.stream)).toBe(1);
    expect(out.text()).toContain('cannot reach https://api.smartsheet.invalid/2.0');
    expect(out.text()).toContain('Check SMARTSHEET_API_BASE');
    expect(out.text()).toContain('https://api.smartsheet.eu/2.0');
    expect(out.text()).toContain('seatflow doctor');
    expect(out.text()).not.toContain('Try again later');
  });
});
