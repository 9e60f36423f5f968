import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dir, env, members, seat, server, useGovernanceCli } from '../helpers/governance-cli-fixture.js';
import { runSeatflow } from '../helpers/run-seatflow.js';

useGovernanceCli();

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
    // Under the plan's counts, as the requester's plan said it: three downgrades, three calls.
    expect(status.stdout).toMatch(/ {14}3 changes \(.*\n {14}Calls to apply: about 3 \(about 1 s at 300 calls per 60 s, the configured rate\)\n/);

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
