import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/index.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

let redis: TestRedis;
let server: RunningReferenceServer;
let dir: string;
let env: NodeJS.ProcessEnv;
const me = os.userInfo().username;

beforeAll(async () => {
  redis = await startTestRedis();
  server = await startReferenceServer({ rateLimit: 'off' });
  dir = mkdtempSync(path.join(os.tmpdir(), 'sf-gov-cli-'));
  // Both people act from this one OS account here, so each command says who with --by.
  const config = {
    governance: {
      operators: [
        { name: 'alice', role: 'operator', token: 'alice-token-0123456789abcdef0123456789', osUsers: [me] },
        { name: 'bob', role: 'approver', token: 'bob-token-0123456789abcdef0123456789abcd', osUsers: [me] },
      ],
      approvals: { changesAbove: 2 },
    },
  };
  writeFileSync(path.join(dir, 'seatflow.json'), JSON.stringify(config));
  env = {
    SMARTSHEET_API_BASE: server.url,
    SMARTSHEET_ACCESS_TOKEN: server.tokens.admin,
    SEATFLOW_API_REGION: 'US',
    REDIS_URL: redis.url,
    SEATFLOW_QUEUE_PREFIX: redis.prefix(),
    SEATFLOW_DATA_DIR: dir,
    SEATFLOW_CONFIG: path.join(dir, 'seatflow.json'),
    SEATFLOW_LOG_LEVEL: 'warn',
  };
}, 60_000);

afterAll(async () => {
  await server?.close();
  await redis?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Generated members of one plan (a downgrade to CONTRIBUTOR is planned for each). */
function members(count: number): string[] {
  const out: string[] = [];
  for (const user of server.context.state.users.values()) {
    if (user.status === 'ACTIVE' && !user.admin && !user.externallyManaged && user.seats.length === 1 && user.seats[0]!.seatType === 'MEMBER' && /\.\d+@acme\.example$/.test(user.email)) out.push(user.email);
    if (out.length === count) break;
  }
  return out;
}
const seat = (email: string) => [...server.context.state.users.values()].find((user) => user.email === email)?.seats[0]?.seatType;

describe('seatflow approve, reject, audit and revert', { timeout: 240_000 }, () => {
  it('a submitted batch waits, its requester cannot approve it, another operator does; the trail verifies; the batch is reverted the same way', async () => {
    const emails = members(3);
    const manifest = path.join(dir, 'downgrade.csv');
    writeFileSync(manifest, `${['email,action,seatType', ...emails.map((email) => `${email},downgrade,CONTRIBUTOR`)].join('\n')}\n`);

    const submitted = await runSeatflow(['submit', manifest, '--by', 'alice', '--reason', 'HR-1234'], env);
    expect(submitted.code, submitted.stderr).toBe(4);
    const id = /batch (b[0-9a-f]{12}) waits for approval \(requested by alice\)/.exec(submitted.stdout)?.[1];
    expect(id, submitted.stdout).toBeDefined();
    expect(submitted.stdout).toContain(`Another person approves it with: seatflow approve ${id}`);

    const listed = await runSeatflow(['approve'], env);
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+awaiting-approval\\s+batch .* by alice\\s+3 changes`));
    const status = await runSeatflow(['status', id!], env);
    expect(status.stdout).toMatch(/batch b[0-9a-f]{12}: awaiting-approval/);
    expect(status.stdout).toContain('requested:  ');
    expect(status.stdout).toContain('reason: HR-1234');

    const own = await runSeatflow(['approve', id!, '--by', 'alice', '--yes'], env);
    expect(own.code).toBe(2);
    expect(own.stderr).toMatch(/alice \(operator\) may not approve changes/);
    expect(emails.map(seat)).toEqual(['MEMBER', 'MEMBER', 'MEMBER']);

    const approved = await runSeatflow(['approve', id!, '--by', 'bob', '--yes', '--wait'], env);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`Approved by bob: re-planned against live state, the plan is the one approved; queued as ${id}.`);
    expect(approved.stdout).toMatch(/3 rows: 3 succeeded/);
    expect(emails.map(seat)).toEqual(['VIEWER', 'VIEWER', 'VIEWER']);

    const verified = await runSeatflow(['audit', 'verify'], env);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/The audit trail is intact: \d+ entries/);

    // The revert's plan as data, row by row (what a script is promised), with nothing queued.
    const dry = await runSeatflow(['revert', id!, '--dry-run', '--json', '--by', 'alice'], env);
    expect(dry.code, dry.stderr).toBe(0);
    const shown = JSON.parse(dry.stdout) as { status: string; revertOf: string; rows: { actionName: string; verdict: string; target: { email?: string } }[] };
    expect(shown).toMatchObject({ status: 'dry-run', revertOf: id });
    expect(shown.rows.map((row) => [row.actionName, row.verdict, row.target.email])).toEqual(emails.map((email) => ['upgrade', 'change', email]));

    // Reverting asks again, through the same gate: 3 upgrades wait for bob.
    const revert = await runSeatflow(['revert', id!, '--by', 'alice', '--yes', '--reason', 'INC-9'], env);
    expect(revert.code, revert.stderr).toBe(4);
    expect(revert.stdout).toMatch(/3 rows changed something; 0 changed nothing/);
    expect(revert.stdout).toMatch(/upgrade .* change .*undoes row 1 of/);
    const revertId = /revert (b[0-9a-f]{12}) waits for approval/.exec(revert.stdout)?.[1];
    expect(revertId, revert.stdout).toBeDefined();
    const revertApproved = await runSeatflow(['approve', revertId!, '--by', 'bob', '--yes', '--wait'], env);
    expect(revertApproved.code, revertApproved.stderr).toBe(0);
    expect(emails.map(seat)).toEqual(['MEMBER', 'MEMBER', 'MEMBER']);
    const upgrades = server.context.mutations.list({ operation: 'upgradeUser' });
    expect(upgrades).toHaveLength(3);

    // The export verifies as exported; a line changed in it is found.
    const exportFile = path.join(dir, 'audit.jsonl');
    const exported = await runSeatflow(['audit', 'export', '--out', exportFile], env);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(exportFile, 'utf8').trim().split('\n');
    const events = lines.map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events.filter((event) => event === 'row.applied')).toHaveLength(6);
    expect(events).toEqual(expect.arrayContaining(['config.loaded', 'change.requested', 'change.approved', 'change.queued']));
    expect((await runSeatflow(['audit', 'verify', '--file', exportFile], env)).code).toBe(0);
    const tampered = lines.map((line, i) => (i === 3 ? line.replace(/"actor":"[^"]+"/, '"actor":"mallory"') : line));
    writeFileSync(exportFile, `${tampered.join('\n')}\n`);
    const broken = await runSeatflow(['audit', 'verify', '--file', exportFile], env);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/is BROKEN at entry 4 \(line 4 of .*\): its content does not give its hash/);

    const csv = await runSeatflow(['audit', 'export', '--format', 'csv', '--from', new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)], env);
    expect(csv.stdout.split('\n')[0]).toBe('seq,at,event,actor,subject,reason,data,prev,hash');
    expect(csv.stdout).toContain(',change.requested,alice,');
  });

  it('an offboarding over the threshold waits too; approved, the workflow is queued as planned', async () => {
    const leavers = path.join(dir, 'leavers.csv');
    const emails = members(12).slice(9);
    writeFileSync(leavers, `email\n${emails.join('\n')}\n`);
    const offboard = await runSeatflow(['offboard', leavers, '--hold', '2d', '--by', 'alice', '--reason', 'HR-77', '--yes', '--no-wait'], env);
    expect(offboard.code, offboard.stdout + offboard.stderr).toBe(4);
    const id = /offboarding (o[0-9a-f]{12}) waits for approval/.exec(offboard.stdout)?.[1];
    expect(id, offboard.stdout).toBeDefined();
    expect((await runSeatflow(['status', id!], env)).stdout).toMatch(/offboarding o[0-9a-f]{12}: awaiting-approval[\s\S]*deactivate-now/);
    const approved = await runSeatflow(['approve', id!, '--by', 'bob', '--yes'], env);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`queued as ${id}`);
    const status = await runSeatflow(['status', id!, '--json'], env);
    expect((JSON.parse(status.stdout) as { leavers: Array<{ email: string }> }).leavers.map((leaver) => leaver.email).sort()).toEqual([...emails].sort());
  });

  it('a sync schedule\'s run over the threshold waits for approval as the schedule, and changes nothing', async () => {
    const exportFile = path.join(dir, 'hr-nightly.csv');
    writeFileSync(exportFile, readFileSync(path.join(ROOT, 'jobs/examples/hr-export-bamboohr.csv')));
    const policy = path.join(dir, 'lifecycle-nightly.json');
    writeFileSync(policy, JSON.stringify({ ...(JSON.parse(readFileSync(path.join(ROOT, 'jobs/examples/lifecycle-policy.json'), 'utf8')) as object), name: 'acme-hr-nightly' }));
    const added = await runSeatflow(['schedule', 'add', 'hr-nightly', 'sync', exportFile, '--policy', policy, '--cron', '0 2 * * *', '--apply', '--max-changes', '10', '--by', 'alice'], env);
    expect(added.code, added.stdout + added.stderr).toBe(0);
    const ran = await runSeatflow(['schedule', 'run', 'hr-nightly'], env);
    expect(ran.code, ran.stdout + ran.stderr).toBe(4);
    const id = /The run waits for approval as (s[0-9a-f]{12}): seatflow approve s[0-9a-f]{12}/.exec(ran.stdout)?.[1];
    expect(id, ran.stdout).toBeDefined();
    expect((await runSeatflow(['schedule', 'list'], env)).stdout).toContain(`waits for approval as ${id}, changed nothing`);
    expect((await runSeatflow(['approve'], env)).stdout).toMatch(new RegExp(`${id}\\s+awaiting-approval\\s+sync .* by schedule:hr-nightly`));
    expect([...server.context.state.users.values()].some((user) => user.email === 'omar.haddad@acme.example')).toBe(false);
    expect((await runSeatflow(['reject', id!, '--by', 'bob', '--reason', 'checked by hand'], env)).code).toBe(0);
    expect((await runSeatflow(['schedule', 'remove', 'hr-nightly', '--by', 'alice'], env)).code).toBe(0);
  });

  it('a sync over the threshold waits for approval like an offboarding: nothing changes and the export is not accepted until another operator approves it', async () => {
    const exportFile = path.join(dir, 'hr-export.csv');
    writeFileSync(exportFile, readFileSync(path.join(ROOT, 'jobs/examples/hr-export-workday.csv')));
    const policy = path.join(ROOT, 'jobs/examples/lifecycle-policy.json');
    const known = (email: string) => [...server.context.state.users.values()].some((user) => user.email === email);
    const sync = ['sync', exportFile, '--policy', policy, '--apply', '--yes', '--no-wait'];

    const asked = await runSeatflow([...sync, '--by', 'alice', '--reason', 'HR-88'], env);
    expect(asked.code, asked.stdout + asked.stderr).toBe(4);
    const id = /sync (s[0-9a-f]{12}) waits for approval \(requested by alice\): 4 changes, more than governance\.approvals\.changesAbove \(2\)/.exec(asked.stdout)?.[1];
    expect(id, asked.stdout).toBeDefined();
    expect(asked.stdout).toContain('The export is not accepted until it is approved and queued.');
    expect(known('omar.haddad@acme.example')).toBe(false);
    const again = await runSeatflow([...sync, '--by', 'alice'], env);
    expect(again.code).toBe(4);
    expect(again.stdout).toContain(`sync ${id} was asked for before and still waits for approval`);
    const planned = await runSeatflow(['sync', exportFile, '--policy', policy], env);
    expect(planned.stdout, planned.stderr).toContain('Compared with: nothing accepted yet for this target and policy');

    expect((await runSeatflow(['approve', id!, '--by', 'alice', '--yes'], env)).code).toBe(2);
    const approved = await runSeatflow(['approve', id!, '--by', 'bob', '--yes'], env);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`queued as ${id}`);
    const steps = await runSeatflow(['steps'], env);
    expect(steps.stdout).toMatch(/Joiners j[0-9a-f]{12}\n\s+(now|in .*)\s+join\s+(omar\.haddad|nina\.novak)@acme\.example/);
    expect(steps.stdout).toMatch(/Offboarding o[0-9a-f]{12}\n/);
    const accepted = await runSeatflow([...sync, '--by', 'alice'], env);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/was accepted .*: nothing to do\./);
    const trail = await runSeatflow(['audit', 'export', '--format', 'jsonl'], env);
    expect(trail.stdout).toMatch(new RegExp(`"event":"change\\.approved".*"subject":"${id}"`));
  });

  it('approve --wait of a sync that waited re-plans it, refuses a plan that changed since, and once approved runs its due steps here as sync --apply does', async () => {
    const policy = path.join(dir, 'lifecycle-wait.json');
    writeFileSync(policy, JSON.stringify({ ...(JSON.parse(readFileSync(path.join(ROOT, 'jobs/examples/lifecycle-policy.json'), 'utf8')) as object), name: 'acme-hr-wait' }));
    // Three joiners whose start date has come: due now, each a change (more than changesAbove 2).
    const started = new Date(Date.now() - 3 * 86_400_000);
    const startDate = `${String(started.getUTCMonth() + 1).padStart(2, '0')}/${String(started.getUTCDate()).padStart(2, '0')}/${started.getUTCFullYear()}`;
    const joiners = [1, 2, 3].map((n) => `wait.joiner.${n}@acme.example`);
    const exportFile = path.join(dir, 'hr-wait.csv');
    writeFileSync(exportFile, `Employee ID,Work Email,Worker Status,Hire Date,Supervisory Organization,Business Title\n${joiners.map((email, i) => `20000${i},${email},Active,${startDate},Marketing,Coordinator`).join('\n')}\n`);
    const inOrg = (email: string) => [...server.context.state.users.values()].some((user) => user.email === email && user.inOrg);

    const asked = await runSeatflow(['sync', exportFile, '--policy', policy, '--apply', '--yes', '--no-wait', '--by', 'alice'], env);
    expect(asked.code, asked.stdout + asked.stderr).toBe(4);
    const id = /sync (s[0-9a-f]{12}) waits for approval/.exec(asked.stdout)?.[1];
    expect(id, asked.stdout).toBeDefined();

    // Meanwhile one joiner is added by hand: the plan approved would no longer be the plan run, so nothing runs.
    const manual = path.join(dir, 'add-one.csv');
    writeFileSync(manual, `email,action\n${joiners[0]},add\n`);
    expect((await runSeatflow(['run', manual, '--by', 'alice', '--yes'], env)).code).toBe(0);
    const stale = await runSeatflow(['approve', id!, '--by', 'bob', '--yes', '--wait'], env);
    expect(stale.code, stale.stdout + stale.stderr).toBe(4);
    expect(stale.stdout).toContain('The plan went stale since it was approved (live state changed): nothing ran.');
    expect(stale.stdout).toContain(joiners[0]);
    expect(inOrg(joiners[1]!) || inOrg(joiners[2]!)).toBe(false);

    // Approved as it stands now, with --wait: queued, and the steps due now run in this process to the end.
    const approved = await runSeatflow(['approve', id!, '--by', 'bob', '--yes', '--wait'], env);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`queued as ${id}`);
    const workflow = /Joiners (j[0-9a-f]{12}) queued\./.exec(approved.stdout)?.[1];
    expect(workflow, approved.stdout).toBeDefined();
    expect(approved.stdout).toContain('The export is accepted: the next sync compares with it.');
    for (const email of joiners.slice(1)) {
      expect(inOrg(email), email).toBe(true);
      expect(seat(email), email).toBe('VIEWER');
    }
    const steps = await runSeatflow(['steps'], env);
    expect(steps.stdout).not.toContain(workflow!);
  });

  it('reject needs a reason and ends the request', async () => {
    const manifest = path.join(dir, 'deactivate.csv');
    writeFileSync(manifest, `${['email,action', ...members(6).slice(3).map((email) => `${email},deactivate`)].join('\n')}\n`);
    const submitted = await runSeatflow(['submit', manifest, '--by', 'alice', '--yes'], env);
    const id = /batch (b[0-9a-f]{12}) waits/.exec(submitted.stdout)?.[1];
    expect(id, submitted.stdout + submitted.stderr).toBeDefined();
    expect((await runSeatflow(['reject', id!, '--by', 'bob'], env)).code).toBe(2);
    const rejected = await runSeatflow(['reject', id!, '--by', 'bob', '--reason', 'not this week'], env);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toContain(`batch ${id} rejected by bob: not this week. Nothing was changed.`);
    const again = await runSeatflow(['submit', manifest, '--by', 'alice', '--yes'], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/rejected by bob \(not this week\): nothing was queued/);
  });
});
