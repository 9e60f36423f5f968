import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import type { PlanSeat, UserRecord } from '../../src/server/state/records.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/start-reference-server.js';
import type { LiveUser } from '../../src/sync/live-user.js';
import { readUserSnapshot } from '../../src/sync/user-snapshot.js';
import { runSeatflow } from '../helpers/run-seatflow.js';

// seatflow export users as a person runs it: bin/seatflow against a reference server of 2,500 users (more than one
// page of 2000), a private redis-server under the data directory for the request budget.
let dir: string;
let server: RunningReferenceServer;
let env: NodeJS.ProcessEnv;
const ORG = 2500;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seatflow-export-'));
  // 2,483 generated users and the 17 story users.
  server = await startReferenceServer({ rateLimit: 'off', users: ORG - 17 });
  const record = (email: string): UserRecord => [...server.context.state.users.values()].find((user) => user.email === email)!;
  // A seat type this release does not know, and a name a spreadsheet would run as a formula.
  record('casey.nguyen@acme.example').seats[0]!.seatType = 'SUPER_SEAT' as PlanSeat['seatType'];
  record('marcus.chen@acme.example').firstName = '=HYPERLINK("http://evil.example")';
  // Budget generous enough that the per-user calls are not paced to the real service's 300 a minute here.
  env = { SEATFLOW_DATA_DIR: dir, SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: server.tokens.admin, SEATFLOW_RATE_LIMIT: '100000/60' };
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const lastSeq = () => server.requests.list().at(-1)?.seq ?? 0;
/** The page size of every list-users call since `afterSeq` that read users (the counts ask for one user). */
const userPageSizes = (afterSeq: number) =>
  server.requests
    .list({ operation: 'listUsers', afterSeq })
    .filter((entry) => entry.query.pageSize !== '1')
    .map((entry) => ({ pageSize: Number(entry.query.pageSize), page: Number(entry.query.page ?? 1), lastLogin: entry.query.include === 'lastLogin', status: entry.status }));
const callsSince = (afterSeq: number) => server.requests.list({ afterSeq }).length;
const printedCalls = (stderr: string, label: RegExp) => Number(label.exec(stderr)?.[1]?.replaceAll(',', ''));

describe('seatflow export users (CLI)', () => {
  it('writes the default columns as CSV for 2,500 users, 100 a page for lastLogin, in the calls it announced before starting', async () => {
    const out = path.join(dir, 'users.csv');
    const from = lastSeq();
    const { code, stdout, stderr } = await runSeatflow(['export', 'users', '--out', out], env);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const rows = parse(await readFile(out), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(ORG);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'email', 'name', 'status', 'admin', 'groupAdmin', 'resourceViewer', 'licensedSheetCreator', 'planId', 'seatType', 'isInternal', 'provisionalExpirationDate', 'seatTypeLastChangedAt', 'lastLogin', 'groupsOwned']);
    expect(rows.find((row) => row.email === 'admin@acme.example')).toMatchObject({ status: 'ACTIVE', admin: 'true', planId: String(DEMO.planId), seatType: 'MEMBER', isInternal: 'true', groupsOwned: 'IT Admins' });
    expect(rows.find((row) => row.email === 'priya.shah@acme.example')).toMatchObject({ groupAdmin: 'true', groupsOwned: 'unknown' });
    expect(rows.find((row) => row.email === 'casey.nguyen@acme.example')).toMatchObject({ status: 'ACTIVE', seatType: 'SUPER_SEAT' });
    expect(rows.find((row) => row.email === 'marcus.chen@acme.example')!.name).toBe(`'=HYPERLINK("http://evil.example") Chen`);
    expect(rows.find((row) => row.email === 'riley.owens@acme.example')!.provisionalExpirationDate).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(rows.filter((row) => row.lastLogin !== '').length).toBeGreaterThan(ORG / 2);
    // The plan of calls came first, and its count is what the server answered.
    const planned = printedCalls(stderr, /^Plan of calls: ([\d,]+) calls for 2,500 users/m);
    expect(stderr.indexOf('Plan of calls')).toBeLessThan(stderr.indexOf('Exported'));
    expect(printedCalls(stderr, /^Exported 2,500 users \(CSV\) to .* in ([\d,]+) calls/m)).toBe(planned);
    expect(callsSince(from)).toBe(planned);
    const pages = userPageSizes(from);
    expect(pages).toHaveLength(ORG / 100);
    expect(pages.every((call) => call.pageSize === 100 && call.lastLogin && call.status === 200)).toBe(true);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('without lastLogin reads 2000 a page, never more, and its JSON Lines read back as the snapshot', async () => {
    const out = path.join(dir, 'users.jsonl');
    const from = lastSeq();
    const { code, stderr } = await runSeatflow(['export', 'users', '--fields', 'id,email,status,seatType', '--out', out], env);
    expect(code).toBe(0);
    expect(userPageSizes(from)).toEqual([
      { pageSize: 2000, page: 1, lastLogin: false, status: 200 },
      { pageSize: 2000, page: 2, lastLogin: false, status: 200 },
    ]);
    expect(printedCalls(stderr, /^Plan of calls: ([\d,]+) calls/m)).toBe(callsSince(from));
    const users: LiveUser[] = [];
    for await (const user of readUserSnapshot(out)) users.push(user);
    expect(users).toHaveLength(ORG);
    expect(new Set(users.map((user) => user.email)).size).toBe(ORG);
    const casey = users.find((user) => user.email === 'casey.nguyen@acme.example')!;
    expect(casey.seats).toEqual([{ planId: DEMO.planId, unrecognized: [{ field: 'seatType', value: 'SUPER_SEAT' }] }]);
    expect(users.find((user) => user.email === 'pat.quinn@acme.example')).toMatchObject({ status: 'PENDING', seats: [{ planId: DEMO.planId, seatType: 'CONTRIBUTOR' }] });
  });

  it('says what alternate e-mails cost before it starts, and writes JSON Lines to stdout when no file is named', async () => {
    const from = lastSeq();
    const { code, stdout, stderr } = await runSeatflow(['export', 'users', '--format', 'jsonl', '--fields', 'email,alternateEmails,lastLogin', '--plan', `${DEMO.planId},${DEMO.labsPlanId}`], env);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^ +2,500 {2}GET \/users\/\{id\} for each user: alternateEmails is not in the listing/m);
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { email: string; alternateEmails: { email: string }[]; lastLogin: string | null });
    expect(lines).toHaveLength(ORG);
    expect(lines.find((line) => line.email === 'chris.morgan@acme.example')!.alternateEmails.map((item) => item.email)).toEqual(['chris.m@acme.example']);
    expect(server.requests.list({ operation: 'getUser', afterSeq: from })).toHaveLength(ORG);
    expect(userPageSizes(from).every((call) => call.pageSize === 2000 && !call.lastLogin)).toBe(true);
    expect(callsSince(from)).toBe(printedCalls(stderr, /^Plan of calls: ([\d,]+) calls/m));
  }, 120_000);

  it('refuses an unknown field with the closest one, and says SIMULATION against --sim', async () => {
    const refused = await runSeatflow(['export', 'users', '--fields', 'email,seattype,lastlogn'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no field "lastlogn" (did you mean "lastLogin"?)');
    // The same data directory, whose Redis holds the budget the commands above spent with the same demo token at
    // another server: the simulation's budget is its own (it used to wait for that one). Stopped after a minute so
    // that a hang shows its stderr.
    const sim = await runSeatflow(['export', 'users', '--sim', '--fields', 'email,seatType'], { SEATFLOW_DATA_DIR: dir }, { timeoutMs: 60_000 });
    expect(sim.stderr).toMatch(/^Target: SIMULATION/m);
    expect(sim.code).toBe(0);
    expect(sim.stderr).toMatch(/^Exported 317 users \(CSV, SIMULATION\) to stdout/m);
    expect(sim.stdout.split('\n')[0]).toBe('email,seatType');
    // Two commands, the second starting its own private Redis and reference server: slow on a loaded 2-core machine.
  }, 120_000);
});
