import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { ROOT } from '../helpers/run-seatflow.js';
import { seatflowProcesses, type SeatflowProcesses } from '../helpers/seatflow-processes.js';

const batches = useBatchHarnesses();
let processes: SeatflowProcesses | undefined;
afterEach(async () => {
  await processes?.stop();
  processes = undefined;
});

const WORKDAY = path.join(ROOT, 'jobs/examples/hr-export-workday.csv');
const POLICY = path.join(ROOT, 'jobs/examples/lifecycle-policy.json');

describe('seatflow sync (CLI) with the example exports and policy', () => {
  it('plans, applies (a joiner added now, one on a later date, two leavers), does nothing for the same export, holds a broken one; status, steps and undo take the joiners', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const { run } = (processes = seatflowProcesses(h, batches.redis().url));

    const plan = await run(['sync', WORKDAY, '--policy', POLICY]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Compared with: nothing accepted yet for this target and policy');
    expect(plan.stdout).toMatch(/Plan: 2 joiners, 0 movers, 2 leavers, 0 offboardings undone, 0 transfer targets changed; 311 in the organization and not in the export, 0 protected/);
    expect(plan.stdout).toMatch(/nina\.novak@acme\.example {2}add on 2030-01-05T23:00Z \(Hire Date: start of 01\/06\/2030 in Europe\/Berlin\); MEMBER by rule engineering: adds a PROVISIONAL_MEMBER seat.*— in the export, not in the organization \(first sync\)/);
    expect(plan.stdout).toMatch(/marcus\.chen@acme\.example {2}deactivate on 2030-01-16T05:00Z \(Termination Date: end of last day 01\/15\/2030 in America\/New_York\).*sheets and groups to priya\.shah@acme\.example — end date 01\/15\/2030/);
    expect(plan.stdout).toContain('Nothing was changed, and the export is not accepted. Add --apply to queue these changes.');
    const report = /Plan report: (\S+\.csv)/.exec(plan.stdout)?.[1];
    expect(readFileSync(report ?? '', 'utf8')).toMatch(/acme-hr@[0-9a-f]{12},joiner,100102,omar\.haddad@acme\.example,,"in the export, not in the organization \(first sync\)",add,,CONTRIBUTOR,interns,/);
    expect((await h.mutations()).length).toBe(0);

    const applied = await run(['sync', WORKDAY, '--policy', POLICY, '--apply', '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    const joiners = /Joiners (j[0-9a-f]{12}) queued/.exec(applied.stdout)?.[1] ?? '';
    expect(applied.stdout).toMatch(/Offboarding o[0-9a-f]{12} queued/);
    expect(applied.stdout).toContain('The export is accepted: the next sync compares with it.');
    expect(applied.stdout).toMatch(/omar\.haddad@acme\.example\s+joined\s+last: seat succeeded/);
    const operations = (await h.mutations()).map((m) => m.summary);
    expect(operations.filter((summary) => summary.includes('omar.haddad'))).toEqual([expect.stringMatching(/^added omar\.haddad@acme\.example \(ACTIVE, PROVISIONAL_MEMBER\)/), expect.stringMatching(/omar\.haddad@acme\.example in plan \d+: PROVISIONAL_MEMBER → VIEWER/)]);

    const again = await run(['sync', WORKDAY, '--policy', POLICY, '--apply']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/This export \(.*hr-export-workday\.csv, sha256 [0-9a-f]{12}\) was accepted .* \(run acme-hr@[0-9a-f]{12}\): nothing to do\./);

    const status = await run(['status', joiners]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/nina\.novak@acme\.example\s+scheduled\s+last: plan change .* next: join 2030-01-05T23:00:00\.000Z {2}undo until 2030-01-05T23:00:00\.000Z/);
    const steps = await run(['steps']);
    expect(steps.stdout).toMatch(new RegExp(`Joiners ${joiners}\\n\\s+in \\d+d \\d+h\\s+join\\s+nina\\.novak@acme\\.example`));
    const undone = await run(['undo', joiners, '--user', 'nina.novak@acme.example', '--by', 'hr-ops']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('nina.novak@acme.example: undone: cancelled before its step ran: nothing was done');
    expect((await run(['steps', joiners])).stdout).toContain(`No steps to come in joiners ${joiners}.`);

    // Tomorrow's export lacks two of the eight employees (the joiners): taken as broken, nothing changes, exit 2.
    const lines = readFileSync(WORKDAY, 'utf8').trimEnd().split('\n');
    const broken = h.writeManifest('broken.csv', lines.slice(0, 7));
    const held = await run(['sync', broken, '--policy', POLICY, '--apply', '--yes']);
    expect(held.code).toBe(2);
    expect(held.stdout).toMatch(/Nothing was changed, and the export is not accepted: the export lacks 2 of the 8 employees of the last accepted export \(25\.0%/);
    const count = (await h.mutations()).length;
    const confirmed = await run(['sync', broken, '--policy', POLICY, '--apply', '--yes', '--accept-missing']);
    expect(confirmed.code, confirmed.stdout).toBe(0);
    expect(confirmed.stdout).toMatch(/omar\.haddad@acme\.example {2}deactivate now;.*sheets and groups to chris\.morgan@acme\.example — gone from the export/);
    expect((await h.mutations()).length).toBeGreaterThan(count);
  }, 240_000);

  it('runs a sync on a schedule: schedule add NAME sync HR_EXPORT --policy P, run now, listed with its last run', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const { run } = (processes = seatflowProcesses(h, batches.redis().url));
    const exportFile = h.writeManifest('hr-latest.csv', readFileSync(path.join(ROOT, 'jobs/examples/hr-export-bamboohr.csv'), 'utf8').trimEnd().split('\n'));
    const policy = path.join(h.dir, 'lifecycle.json');
    writeFileSync(policy, readFileSync(POLICY));

    const refused = await run(['schedule', 'add', 'nightly-hr', 'sync', exportFile, '--cron', '0 2 * * *']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('a sync schedule names one HR export and its lifecycle policy');
    const added = await run(['schedule', 'add', 'nightly-hr', 'sync', exportFile, '--policy', policy, '--cron', '0 2 * * *', '--tz', 'Europe/Berlin', '--apply', '--max-changes', '10']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`Schedule nightly-hr: "0 2 * * *" Europe/Berlin, applies, sync of ${exportFile} with policy ${policy}`);

    const first = await run(['schedule', 'run', 'nightly-hr']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/last run: .* \(acme-hr@[0-9a-f]{12}\): 4 changes queued: j[0-9a-f]{12}, o[0-9a-f]{12}/);
    const second = await run(['schedule', 'run', 'nightly-hr']);
    expect(second.stdout).toMatch(/last run: .*: nothing to change: no batch/);
    const listed = await run(['schedule', 'list']);
    expect(listed.stdout).toContain(`sync of ${exportFile} with policy ${policy}`);
  }, 240_000);
});
