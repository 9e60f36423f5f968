import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/start-reference-server.js';
import { runSeatflow } from '../helpers/run-seatflow.js';

// The service answers GET /users at most 2000 a page (400/1229 above; docs/service.md#paging-list-users). seatflow
// must page within that cap for any organization size: proved on 12,000 users by the reference server's request log.
let dir: string;
let server: RunningReferenceServer;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seatflow-large-org-'));
  // 11,983 generated users and the 17 story users: 12,000.
  server = await startReferenceServer({ rateLimit: 'off', users: 11_983 });
  env = { SEATFLOW_DATA_DIR: dir, SMARTSHEET_API_BASE: server.url, SMARTSHEET_ACCESS_TOKEN: server.tokens.admin };
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The list-users calls the server answered since `afterSeq`, with the page size each asked for. */
function listUsersCalls(afterSeq: number) {
  return server.requests.list({ operation: 'listUsers', afterSeq }).map((entry) => ({ pageSize: Number(entry.query.pageSize ?? 100), includeAll: entry.query.includeAll, status: entry.status }));
}
const lastSeq = () => server.requests.list().at(-1)?.seq ?? 0;

describe('a 12,000-user organization is read within the 2000-user page cap', () => {
  it('seatflow plan of 3,000 rows completes, and no list-users call asks for more than 2000 users', async () => {
    expect(server.context.state.users.size).toBe(12_000);
    const generated = [...server.context.state.users.values()].filter((user) => /\.\d+@acme\.example$/.test(user.email)).slice(0, 3000);
    const lines = ['email,action,seatType', ...generated.map((user, i) => (i % 2 === 0 ? `${user.email},deactivate,` : `${user.email},downgrade,CONTRIBUTOR`))];
    const manifest = path.join(dir, 'three-thousand.csv');
    await writeFile(manifest, `${lines.join('\n')}\n`);
    const from = lastSeq();
    // The table, not --json: 3,000 rows of JSON outgrow the test helper's output buffer.
    const { code, stdout, stderr } = await runSeatflow(['plan', manifest, '--yes'], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const summary = /^3000 rows: (\d+) change, .* · (\d+) API calls$/m.exec(stdout);
    expect(Number(summary?.[1])).toBeGreaterThan(1000);
    const calls = listUsersCalls(from);
    expect(calls.length).toBeGreaterThanOrEqual(6);
    expect(calls.every((call) => call.pageSize <= 2000 && call.includeAll === undefined && call.status === 200)).toBe(true);
    // One full listing (6 pages of 2000) beats 30 e-mail batches of 100: the cap costs pages, not correctness.
    expect(calls.filter((call) => call.pageSize === 2000).length).toBeGreaterThanOrEqual(6);
  });

  it('seatflow reconcile of the organization completes with every list-users call within the cap', async () => {
    const policy = path.join(dir, 'policy.json');
    await writeFile(policy, JSON.stringify({ planId: DEMO.planId, rules: [{ when: { seat: 'MEMBER', lastLoginOlderThanDays: 90 }, then: { seat: 'CONTRIBUTOR' } }] }));
    const from = lastSeq();
    const { code, stdout } = await runSeatflow(['reconcile', policy], env);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Plan 5420192837465012: \d{4,5} users read/);
    const calls = listUsersCalls(from);
    expect(calls.length).toBeGreaterThan(100);
    expect(calls.every((call) => call.pageSize <= 2000 && call.includeAll === undefined && call.status === 200)).toBe(true);
  });
});
