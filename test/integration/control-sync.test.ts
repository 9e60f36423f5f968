import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auth } from '../unit/control/control-test-deps.js';
import { useSyncHarnesses } from '../helpers/sync-harness.js';
import { ALICE_TOKEN, BOB_TOKEN, SYNC_HEADER, syncDashboard } from '../helpers/sync-dashboard.js';
import { DAY } from '../helpers/offboarding-harness.js';

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const csv = { 'content-type': 'text/csv' };

describe('control API: POST /v1/syncs', { timeout: 120_000 }, () => {
  const { open } = useSyncHarnesses();

  it('plans an uploaded export with a policy of the policy folder, queues it through the approvals gate, and reads nothing outside the folder', async () => {
    const { h, s } = await open();
    const { app, policyDir } = syncDashboard({ h, s }, { governance: true });
    try {
      const start = h.server.context.clock.now();
      const date = (days: number) => new Date(start + days * DAY).toISOString().slice(0, 10);
      const at = `${new Date(start).toISOString().slice(0, 19)}Z`;
      const joiners = [1, 2, 3].map((n) => `http.joiner.${n}@acme.example`);
      const body = `${SYNC_HEADER}\n${joiners.map((email, i) => `J${i},${email},Active,${date(i)},Marketing,Coordinator,${at}`).join('\n')}\n`;
      const post = (query: string, headers: Record<string, string> = as(ALICE_TOKEN), payload = body) => app.inject({ method: 'POST', url: `/v1/syncs?${query}`, headers: { ...headers, ...csv }, payload });

      // The policy is a file name of the folder; a path, a way up, or a link out of the folder is refused unread.
      writeFileSync(path.join(h.dir, 'outside.json'), '{}');
      symlinkSync(path.join(h.dir, 'outside.json'), path.join(policyDir, 'linked.json'));
      for (const policy of ['../outside.json', 'policies/lifecycle.json', '/etc/passwd', 'linked.json', 'missing.json']) {
        const refused = await post(`policy=${encodeURIComponent(policy)}&dryRun=true`);
        expect(refused.statusCode, policy).toBe(400);
        expect(refused.json().error.message).toMatch(/^policy ".*" is refused: /);
      }
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);
      // A page elsewhere cannot make a browser start a sync: a forged origin is refused before the body is read.
      const forged = await post('policy=lifecycle.json', { ...auth, origin: 'https://evil.example' });
      expect(forged.statusCode).toBe(403);
      expect(forged.json().error.code).toBe('FORBIDDEN_ORIGIN');

      const planned = await post('policy=lifecycle.json&dryRun=true&name=hr-nightly.csv');
      expect(planned.statusCode, planned.body).toBe(200);
      expect(planned.json()).toMatchObject({ target: 'SIMULATION', applied: null, changes: 3, joiners: { change: 3, other: 0 }, export: { employees: 3 }, previous: null });
      expect(planned.json().export.path).toMatch(/sync\/uploads\/[0-9a-f]{16}\/hr-nightly\.csv$/);
      // Each joiner is added, then given the seat: two calls, at the configured 300 per 60 s.
      expect(planned.json().calls).toEqual({ toApply: 6, expectedSeconds: 1.2, rate: { requests: 300, perSeconds: 60 } });
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);

      // Three changes: more than changesAbove (2). Alice's sync waits; nothing changes and the export is not accepted.
      const asked = await post('policy=lifecycle.json&name=hr-nightly.csv&reason=HR-91');
      expect(asked.statusCode, asked.body).toBe(202);
      const { approval } = asked.json();
      expect(asked.json()).toMatchObject({ awaitingApproval: true, created: true, approval: { kind: 'sync', state: 'awaiting-approval', requestedBy: { name: 'alice' }, reason: 'HR-91' } });
      // The request keeps its plan's calls, and the API says them as every plan answer does.
      expect(asked.json().approval).toMatchObject({ callsToApply: 6, calls: { toApply: 6, expectedSeconds: 1.2, rate: { requests: 300, perSeconds: 60 } } });
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);
      expect((await post('policy=lifecycle.json&dryRun=true&name=hr-nightly.csv')).json().previous).toBeNull();

      // Alice cannot approve her own; Bob does: re-planned on the approved plan and queued.
      expect((await app.inject({ method: 'POST', url: `/v1/approvals/${approval.id}/approve`, headers: as(ALICE_TOKEN) })).statusCode).toBe(403);
      const approved = await app.inject({ method: 'POST', url: `/v1/approvals/${approval.id}/approve`, headers: as(BOB_TOKEN) });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ status: 'queued', id: approval.id, created: true });
      const workflows = await s.o.system.engine.activeWorkflows();
      expect(workflows.map((workflow) => workflow.id)).toEqual([expect.stringMatching(/^j[0-9a-f]{12}$/)]);
      const again = await post('policy=lifecycle.json&name=hr-nightly.csv');
      expect(again.json()).toMatchObject({ sameExport: true });
    } finally {
      await app.close();
    }
  });

  it('holds a broken export (20% of the employees missing): nothing changes, the export is not accepted, and it says why', async () => {
    const { h, s } = await open();
    const { app } = syncDashboard({ h, s });
    try {
      const start = h.server.context.clock.now();
      const at = (hours: number) => `${new Date(start + hours * 3_600_000).toISOString().slice(0, 19)}Z`;
      const staff = ['dana.whitfield', 'jordan.lee', 'priya.shah', 'marcus.chen', 'chris.morgan'].map((name, i) => `E00${i},${name}@acme.example,Active,2020-01-06,Engineering,Engineer`);
      const exportOf = (rows: readonly string[], hours: number) => `${SYNC_HEADER}\n${rows.map((row) => `${row},${at(hours)}`).join('\n')}\n`;
      const post = (query: string, payload: string) => app.inject({ method: 'POST', url: `/v1/syncs?${query}`, headers: { ...auth, ...csv }, payload });

      const baseline = await post('policy=lifecycle.json&name=night-1.csv', exportOf(staff, 0));
      expect(baseline.statusCode, baseline.body).toBe(202);
      expect(baseline.json()).toMatchObject({ nothingToChange: true, applied: { undos: [], transfers: [] } });
      const mutations = (await h.mutations()).length;

      const broken = await post('policy=lifecycle.json&name=night-2.csv', exportOf(staff.slice(0, 4), 1));
      expect(broken.statusCode, broken.body).toBe(409);
      const { error } = broken.json();
      expect(error.code).toBe('CONFIRMATION_REQUIRED');
      expect(error.message).toMatch(/^nothing was changed, and the export is not accepted: the export lacks 1 of the 5 employees of the last accepted export \(20\.0%, at or above the policy's safety\.maxMissingShare of 20%\): taken as a broken export, not a layoff/);
      expect(error.hint).toBe('If those employees really left, send the same export again with acceptMissing=true.');
      expect(error.sync).toMatchObject({ applied: null, heldBecause: [expect.stringMatching(/broken export/)], missing: { gone: 1, base: 5, broken: true } });
      expect(await s.o.system.engine.activeWorkflows()).toEqual([]);
      expect((await h.mutations()).length).toBe(mutations);
      // The last accepted export is still the first night's: the next plan compares with it.
      const next = await post('policy=lifecycle.json&name=night-2.csv&dryRun=true', exportOf(staff.slice(0, 4), 1));
      expect(next.json().previous).toMatchObject({ file: expect.stringMatching(/night-1\.csv$/) });

      // Confirmed: marcus's absence is a leaver (the offboarding of the run).
      const accepted = await post('policy=lifecycle.json&name=night-2.csv&acceptMissing=true', exportOf(staff.slice(0, 4), 1));
      expect(accepted.statusCode, accepted.body).toBe(202);
      expect(accepted.json()).toMatchObject({ applied: { offboarding: { created: true } }, leavers: { change: 1 } });
    } finally {
      await app.close();
    }
  });
});
