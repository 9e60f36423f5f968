import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSyncHarnesses } from '../helpers/sync-harness.js';
import { ALICE_TOKEN, SYNC_HEADER, syncDashboard } from '../helpers/sync-dashboard.js';
import { DAY } from '../helpers/offboarding-harness.js';
import { csrfOf, follow, getPage, postFile, postForm, signIn, textOf } from '../unit/control/dashboard-sign-in.js';

const actionOf = (body: string) => /action="(\/syncs\/new\/[0-9a-f]+\/submit)"/.exec(body)?.[1];

describe('dashboard: start a sync from the page', { timeout: 120_000 }, () => {
  const { open } = useSyncHarnesses();

  it('plans an uploaded export person by person with a policy of the folder, refuses a forged confirmation, and queues the plan shown through the approvals gate', async () => {
    const { h, s } = await open();
    const { app } = syncDashboard({ h, s }, { governance: true });
    try {
      const start = h.server.context.clock.now();
      const date = (days: number) => new Date(start + days * DAY).toISOString().slice(0, 10);
      const at = `${new Date(start).toISOString().slice(0, 19)}Z`;
      const joiners = ['page.joiner.1@acme.example', 'page.joiner.2@acme.example', 'page.engineer@acme.example'];
      const file = `${SYNC_HEADER}\n${joiners.map((email, i) => `P${i},${email},Active,${date(i)},${i === 2 ? 'Engineering' : 'Marketing'},Coordinator,${at}`).join('\n')}\n`;
      const jar = await signIn(app, ALICE_TOKEN);
      const form = await getPage(app, jar, '/syncs/new');
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('<a href="/syncs/new" aria-current="page">Sync from HR</a>');
      expect(form.body).toContain('<option value="lifecycle.json" selected>lifecycle.json</option>');

      // Without the form's CSRF token nothing is even planned.
      expect((await postFile(app, jar, '/syncs/new', { policy: 'lifecycle.json' }, { field: 'export', name: 'hr-nightly.csv', content: file })).statusCode).toBe(403);
      // A policy that is not a file of the folder: said, nothing read.
      const outside = await follow(app, jar, await postFile(app, jar, '/syncs/new', { _csrf: csrfOf(form.body), policy: '../lifecycle.json' }, { field: 'export', name: 'hr-nightly.csv', content: file }));
      expect(outside.statusCode).toBe(400);
      expect(textOf(outside.body)).toContain('policy &quot;../lifecycle.json&quot; is refused');

      const preview = await follow(app, jar, await postFile(app, jar, '/syncs/new', { _csrf: csrfOf(form.body), policy: 'lifecycle.json' }, { field: 'export', name: 'hr-nightly.csv', content: file }));
      expect(preview.statusCode, textOf(preview.body)).toBe(200);
      const planText = textOf(preview.body);
      expect(planText).toContain('Sync plan of hr-nightly.csv');
      expect(planText).toContain('3 joiners');
      expect(planText).toMatch(/page\.joiner\.1@acme\.example add now CONTRIBUTOR seats\.default change/);
      expect(planText).toMatch(new RegExp(`page\\.engineer@acme\\.example add ${date(2)} 00:00:00 UTC MEMBER engineering change`));
      expect(planText).toContain('Broken-export check');
      expect(planText).toContain('Within the limits');
      // Three joiners, each added and then given the seat.
      expect(planText).toContain('Calls to apply: about 6 (about 1 s at 300 calls per 60 s, the configured rate)');
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);

      const action = actionOf(preview.body);
      expect(action).toBeDefined();
      // A confirmation posted from another site is refused before anything runs, CSRF token or not.
      const forged = await app.inject({ method: 'POST', url: action!, headers: { cookie: jar.header(), origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ _csrf: csrfOf(preview.body), confirm: 'true' }).toString() });
      expect(forged.statusCode).toBe(403);
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);
      expect(textOf((await follow(app, jar, await postForm(app, jar, action!, { _csrf: csrfOf(preview.body) }))).body)).toContain('Nothing was started: tick the confirmation box to start the sync.');

      // Three changes: more than changesAbove (2), so the sync waits for a second person, on its approval page.
      const started = await postForm(app, jar, action!, { _csrf: csrfOf(preview.body), confirm: 'true', reason: 'HR-92' });
      expect(started.statusCode, textOf(started.body)).toBe(303);
      expect(started.headers.location).toMatch(/^\/approvals\/s[0-9a-f]{12}\?done=/);
      const approvalPage = await getPage(app, jar, started.headers.location as string);
      expect(approvalPage.statusCode).toBe(200);
      expect(textOf(approvalPage.body)).toMatch(/add page\.joiner\.1@acme\.example now, seat CONTRIBUTOR/);
      // The approver reads what the requester read: three joiners, two calls each.
      expect(textOf(approvalPage.body)).toContain('Calls to apply: about 6 (about 1 s at 300 calls per 60 s, the configured rate)');
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);
      // The preview is used up.
      expect((await follow(app, jar, await postForm(app, jar, action!, { _csrf: csrfOf(preview.body), confirm: 'true' }))).statusCode).toBe(410);
    } finally {
      await app.close();
    }
  });

  it('shows a broken export (20% of the employees missing) as such; confirmed, it changes nothing and says why; a plan changed since it was shown is refused', async () => {
    const { h, s } = await open();
    const { app, policyDir } = syncDashboard({ h, s });
    try {
      const start = h.server.context.clock.now();
      const at = (hours: number) => `${new Date(start + hours * 3_600_000).toISOString().slice(0, 19)}Z`;
      const staff = ['dana.whitfield', 'jordan.lee', 'priya.shah', 'marcus.chen', 'chris.morgan'].map((name, i) => `E00${i},${name}@acme.example,Active,2020-01-06,Engineering,Engineer`);
      const exportOf = (rows: readonly string[], hours: number) => [SYNC_HEADER, ...rows.map((row) => `${row},${at(hours)}`)];
      const baseline = await s.sync(s.writeExport('night-1.csv', exportOf(staff, 0)), path.join(policyDir, 'lifecycle.json'));
      expect(baseline.kind === 'planned' && baseline.disposition.applied).toBe(true);
      const mutations = (await h.mutations()).length;

      const jar = await signIn(app);
      const form = await getPage(app, jar, '/syncs/new');
      const content = `${exportOf(staff.slice(0, 4), 1).join('\n')}\n`;
      const preview = await follow(app, jar, await postFile(app, jar, '/syncs/new', { _csrf: csrfOf(form.body), policy: 'lifecycle.json' }, { field: 'export', name: 'night-2.csv', content }));
      expect(preview.statusCode, textOf(preview.body)).toBe(200);
      const planText = textOf(preview.body);
      expect(planText).toContain('A broken export: 1 of the 5 employees of the last accepted export missing (20.0%; the policy&#39;s safety.maxMissingShare is 20%)');
      expect(planText).toContain('chris.morgan@acme.example deactivate now');
      expect(planText).toContain('This export is taken as broken: confirming changes nothing and does not accept it.');

      const confirmed = await follow(app, jar, await postForm(app, jar, actionOf(preview.body)!, { _csrf: csrfOf(preview.body), confirm: 'true' }));
      expect(confirmed.statusCode).toBe(409);
      expect(textOf(confirmed.body)).toMatch(/Nothing was changed, and the export is not accepted: the export lacks 1 of the 5 employees of the last accepted export \(20\.0%.*taken as a broken export, not a layoff/);
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);
      expect((await h.mutations()).length).toBe(mutations);

      // Ticked "they really left": the plan offboards the missing employee, and confirming queues it.
      const form2 = await getPage(app, jar, '/syncs/new');
      const accepted = await follow(app, jar, await postFile(app, jar, '/syncs/new', { _csrf: csrfOf(form2.body), policy: 'lifecycle.json', acceptMissing: 'true' }, { field: 'export', name: 'night-2.csv', content }));
      expect(textOf(accepted.body)).toContain('Confirmed: they really left.');
      // Someone deactivates him by hand before the plan is confirmed: the plan shown is no longer the plan, so nothing runs.
      h.startWorkers();
      const manual = await h.system.submit(await h.plan(h.writeManifest('by-hand.csv', ['email,action', 'chris.morgan@acme.example,deactivate'])));
      await h.waitForState(manual.batch.id, ['finished']);
      const stale = await follow(app, jar, await postForm(app, jar, actionOf(accepted.body)!, { _csrf: csrfOf(accepted.body), confirm: 'true' }));
      expect(stale.statusCode).toBe(409);
      expect(textOf(stale.body)).toContain('the plan of this sync changed since it was shown');
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);
      const form3 = await getPage(app, jar, '/syncs/new');
      const again = await follow(app, jar, await postFile(app, jar, '/syncs/new', { _csrf: csrfOf(form3.body), policy: 'lifecycle.json', acceptMissing: 'true' }, { field: 'export', name: 'night-2.csv', content }));
      expect(textOf(again.body)).toContain('chris.morgan@acme.example already deactivated');
      const queued = await follow(app, jar, await postForm(app, jar, actionOf(again.body)!, { _csrf: csrfOf(again.body), confirm: 'true' }));
      expect(queued.statusCode, textOf(queued.body)).toBe(200);
      expect(queued.body).toContain('id="result"');
      expect(textOf(queued.body)).toMatch(/Sync of night-2\.csv started by control-token: the plan is queued, and the export is accepted .* Offboarding o[0-9a-f]{12}/);
    } finally {
      await app.close();
    }
  });
});
