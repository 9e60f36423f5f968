import { describe, expect, it } from 'vitest';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';
import { offboardingDashboard } from '../helpers/offboarding-dashboard.js';
import { csrfOf, follow, getPage, postForm, signIn, textOf } from '../unit/control/dashboard-sign-in.js';

const { open } = useOffboardingHarnesses();

describe('dashboard: holds and undo against Redis, workers and the reference server', () => {
  it('lists the leavers in their hold, undoes one through the confirmation page and the reactivation reaches the service', async () => {
    const { h, o } = await open();
    const app = offboardingDashboard({ h, o });
    try {
      const [a, b, c] = await h.deactivatableEmails(3);
      const later = new Date(o.clock.now() + 3 * DAY).toISOString();
      const workflow = await o.offboard(['email,leaveDate', `${a},`, `${b},`, `${c},${later}`]);
      o.startWorkers();
      await o.settle(workflow.id);
      const jar = await signIn(app);

      const holds = await getPage(app, jar, '/holds');
      expect(holds.statusCode).toBe(200);
      const listed = textOf(holds.body);
      expect(listed).toContain('3 leavers in 1 offboarding.');
      expect(listed).toMatch(new RegExp(`${a} row 1 · user \\d+ holding remove `));
      expect(listed).toMatch(new RegExp(`${c} row 3 · user \\d+ scheduled deactivate `));
      expect(holds.body).toContain(`href="/offboardings/${workflow.id}"`);

      const status = textOf((await getPage(app, jar, `/offboardings/${workflow.id}`)).body);
      expect(status).toContain('2 holding, 1 scheduled');
      expect(status).toMatch(new RegExp(`${a} row 1 · user \\d+ holding hold started .* remove 20`));

      // The Undo link leads to a confirmation page; nothing changes until its form is sent with its CSRF token.
      const confirm = await getPage(app, jar, `/offboardings/${workflow.id}/undo?user=${encodeURIComponent(a!)}`);
      expect(confirm.body).toContain(`Undo the offboarding of <strong>${a}</strong>?`);
      // What undoing costs, before it is done: a reactivation assigns a Member seat (the seat recorded before decides the rest).
      expect(textOf(confirm.body)).toContain('A reactivation assigns a Member seat (paid)');
      expect(textOf(confirm.body)).toMatch(/Cost: reactivation assigns a Member seat \(paid\)/);
      const forged = await postForm(app, jar, `/offboardings/${workflow.id}/undo`, { user: a! });
      expect(forged.statusCode).toBe(403);
      expect((await o.leaver(workflow.id, a!)).phase).toBe('holding');

      const done = await follow(app, jar, await postForm(app, jar, `/offboardings/${workflow.id}/undo`, { _csrf: csrfOf(confirm.body), user: a! }));
      expect(done.statusCode).toBe(200);
      expect(textOf(done.body)).toContain(`${a}: undone — removal cancelled; reactivation queued`);
      expect(textOf(done.body)).toMatch(/Cost: reactivation assigns a Member seat \(paid\)/);
      await o.settle(workflow.id);
      const undone = await o.leaver(workflow.id, a!);
      expect(undone.phase).toBe('undone');
      expect(undone.undo?.by).toBe('control-token (dashboard)');
      expect((await h.system.store.getOutcome(workflow.reactivateBatch, undone.row))?.outcome).toBe('succeeded');
      expect(await o.changesOf(a!)).toEqual(['deactivateUser', 'reactivateUser']);

      // The holds page no longer offers a; the offboarding page shows who undid it.
      const after = textOf((await getPage(app, jar, '/holds/live', { 'hx-request': 'true' })).body);
      expect(after).toContain('2 leavers in 1 offboarding.');
      expect(after).not.toContain(a!);
      expect(textOf((await getPage(app, jar, `/offboardings/${workflow.id}/live`, { 'hx-request': 'true' })).body)).toMatch(new RegExp(`${a} row 1 · user \\d+ undone .*undone by control-token \\(dashboard\\) at 20`));

      // Past the removal, undo is refused and the page says why; nothing else changes.
      await o.advance(8 * DAY);
      await o.settle(workflow.id);
      const refusedPage = await getPage(app, jar, `/offboardings/${workflow.id}/undo?user=${encodeURIComponent(b!)}`);
      expect(refusedPage.body).toContain(`${b} cannot be undone now: the leaver is removed.`);
      const refused = await follow(app, jar, await postForm(app, jar, `/offboardings/${workflow.id}/undo`, { _csrf: csrfOf(refusedPage.body), user: b! }));
      expect(refused.body).toContain('role="alert"');
      expect(textOf(refused.body)).toMatch(new RegExp(`${b}: NOT undone — refused: already removed`));
      expect(await o.changesOf(b!)).toEqual(['deactivateUser', 'removeUser']);
      // c left 3 days later: now in its own hold, the only one left.
      const last = textOf((await getPage(app, jar, '/holds')).body);
      expect(last).toContain('1 leaver in 1 offboarding.');
      expect(last).toMatch(new RegExp(`${c} row 3 · user \\d+ holding remove `));
      expect(last).not.toContain(b!);

      // The per-leaver report, linked from the offboarding page, behind the sign-in.
      const offboardingPage = (await getPage(app, jar, `/offboardings/${workflow.id}`)).body;
      expect(offboardingPage).toContain(`href="/offboardings/${workflow.id}/report.csv"`);
      const csv = await getPage(app, jar, `/offboardings/${workflow.id}/report.csv`);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.body.split('\n').filter((line) => line.includes(b!))).toHaveLength(1);
      const jsonl = (await getPage(app, jar, `/offboardings/${workflow.id}/report.jsonl`)).body.trim().split('\n');
      expect(jsonl).toHaveLength(3);
      expect((await app.inject({ method: 'GET', url: `/offboardings/${workflow.id}/report.csv` })).statusCode).not.toBe(200);
    } finally {
      await app.close();
    }
  });
});
