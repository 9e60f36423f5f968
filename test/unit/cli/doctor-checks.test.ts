import { describe, expect, it } from 'vitest';
import { doctorExitCode, fail, ok, warn } from '../../../src/cli/doctor/doctor-check.js';
import { formatDoctor } from '../../../src/cli/doctor/format-doctor.js';
import { failoverCheck } from '../../../src/cli/doctor/redis-checks.js';
import { checkService } from '../../../src/cli/doctor/service-checks.js';
import { describeTarget } from '../../../src/cli/doctor/service-region.js';
import { regionOfBaseUrl } from '../../../src/contract/service-regions.js';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';

/** An API whose /users/me answers an admin, seen with a Date header `skewMs` behind our clock. */
function serviceAt(skewMs: number, baseUrl = 'https://api.smartsheet.com/2.0') {
  const receivedAt = Date.parse('2026-11-23T10:00:00Z');
  const api = { users: { getCurrent: async () => ({ id: 1, email: 'admin@acme.example', admin: true, account: { id: 2, name: 'Acme' } }) } } as unknown as SmartsheetApi;
  return checkService({ baseUrl, region: regionOfBaseUrl(baseUrl), api, lastDate: () => ({ serviceMs: Date.parse(new Date(receivedAt - skewMs).toUTCString()), receivedAt }) });
}

describe('checkService: the target’s clock against ours (its Date header)', () => {
  it('is OK within a minute, WARN beyond, FAIL beyond an hour, saying which way', async () => {
    expect((await serviceAt(1000))[1]).toMatchObject({ status: 'OK', message: expect.stringContaining('within a second of the service') });
    expect((await serviceAt(90_000))[1]).toMatchObject({ status: 'WARN', message: expect.stringContaining('90 s ahead of the service') });
    expect((await serviceAt(-2 * 3_600_000))[1]).toMatchObject({ status: 'FAIL', message: expect.stringContaining('2.0 h behind the service') });
  });

  it('names the organization of a System Admin token, and the region of the base URL', async () => {
    const [token, target] = await serviceAt(0, 'https://api.smartsheet.eu/2.0');
    expect(token).toMatchObject({ status: 'OK', message: 'valid, System Admin: admin@acme.example, organization Acme (account 2)' });
    expect(target?.message).toContain('(Smartsheet Regions Europe)');
  });
});

describe('describeTarget', () => {
  it('names the four regions and says when a host is none of them', () => {
    const names = ['https://api.smartsheet.com/2.0', 'https://api.smartsheet.eu/2.0', 'https://api.smartsheet.au/2.0', 'https://api.smartsheetgov.com/2.0'].map((url) => describeTarget(url, regionOfBaseUrl(url)));
    expect(names).toEqual(['Smartsheet (US)', 'Smartsheet Regions Europe', 'Smartsheet Regions Australia', 'Smartsheet Gov']);
    expect(describeTarget('http://127.0.0.1:8090/2.0', undefined)).toBe('a server on this machine');
    expect(describeTarget('https://proxy.example/2.0', undefined)).toMatch(/not a Smartsheet API host/);
    // A region named in config (api.region) wins over the host: a proxy in front of Smartsheet Gov is Gov.
    expect(describeTarget('https://proxy.example/2.0', 'GOV')).toBe('Smartsheet Gov');
  });
});

describe('doctorExitCode and formatDoctor', () => {
  it('exits with the gravest failure (Redis 3 > token 2 > other 1); warnings alone exit 0', () => {
    expect(doctorExitCode([ok('a', 'fine'), warn('b', 'hmm', 'do x')])).toBe(0);
    expect(doctorExitCode([fail('steps', 'late', 'start a worker'), fail('token', 'refused', 'fix it', 2)])).toBe(2);
    expect(doctorExitCode([fail('token', 'refused', 'fix it', 2), fail('redis', 'down', 'start it', 3)])).toBe(3);
  });

  it('prints one line per check, what to do under each that is not OK, and the counts', () => {
    const text = formatDoctor('https://api.smartsheet.com/2.0', [ok('token', 'valid'), warn('workers', 'none', 'start one')]);
    expect(text).toBe(['seatflow doctor: https://api.smartsheet.com/2.0', '  OK    token    valid', '  WARN  workers  none', `${' '.repeat(17)}→ start one`, '1 OK, 1 warning, 0 failures', ''].join('\n'));
  });
});

describe('failoverCheck', () => {
  it('behind Sentinel, warns while a master takes writes with no replica in sync, and says nothing elsewhere', () => {
    expect(failoverCheck('sentinel', { minReplicasToWrite: 0 })).toMatchObject({ status: 'WARN', message: expect.stringContaining('a row then runs twice'), hint: expect.stringContaining('min-replicas-to-write 1') });
    expect(failoverCheck('sentinel', { minReplicasToWrite: 1 })).toMatchObject({ status: 'OK', message: expect.stringContaining('drops none') });
    expect(failoverCheck('sentinel', { minReplicasToWrite: undefined })).toMatchObject({ status: 'OK', message: expect.stringContaining('refuses CONFIG') });
    expect(failoverCheck('single', { minReplicasToWrite: 0 })).toBeUndefined();
    expect(failoverCheck('cluster', { minReplicasToWrite: 0 })).toBeUndefined();
  });
});
