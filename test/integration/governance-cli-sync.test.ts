import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dir, env, seat, server, useGovernanceCli } from '../helpers/governance-cli-fixture.js';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';

useGovernanceCli();

describe('seatflow approve and reject of HR syncs', { timeout: 240_000 }, () => {
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
});
