import { describe, expect, it } from 'vitest';
import { offboardingDashboard } from '../helpers/offboarding-dashboard.js';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';
import { auth } from '../unit/control/control-test-deps.js';

const { open } = useOffboardingHarnesses();

describe('control API: offboarding', () => {
  it('submits a leavers file, shows its status and holds, undoes one leaver and reports', async () => {
    const { h, o } = await open();
    const app = offboardingDashboard({ h, o });
    const [a, b] = await h.deactivatableEmails(2);
    const tooLong = await app.inject({ method: 'POST', url: '/v1/offboardings?hold=8d', headers: { ...auth, 'content-type': 'text/csv' }, payload: `email\n${a}\n` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toMatch(/reactivation window/);
    const none = await app.inject({ method: 'POST', url: '/v1/offboardings?hold=0', headers: { ...auth, 'content-type': 'text/csv' }, payload: `email\n${a}\n` });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toMatch(/shorter than the minimum of 1d/);
    const noWindow = await app.inject({ method: 'POST', url: '/v1/offboardings?hold=0&noUndoWindow=true&dryRun=true', headers: { ...auth, 'content-type': 'text/csv' }, payload: `email\n${a}\n` });
    expect(noWindow.statusCode).toBe(200);
    expect(noWindow.json().plan.options).toMatchObject({ holdMs: 0, noUndoWindow: true });
    // Deactivate, re-check after the hold, remove: three calls a leaver, at the configured 300 per 60 s.
    expect(noWindow.json().calls).toEqual({ toApply: 3, expectedSeconds: 0.6, rate: { requests: 300, perSeconds: 60 } });

    const submitted = await app.inject({ method: 'POST', url: '/v1/offboardings?hold=7d', headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify([{ email: a }, { email: b }]) });
    expect(submitted.statusCode).toBe(202);
    expect(submitted.json().calls).toEqual({ toApply: 6, expectedSeconds: 1.2, rate: { requests: 300, perSeconds: 60 } });
    const id = submitted.json().offboardingId as string;
    const again = await app.inject({ method: 'POST', url: '/v1/offboardings?hold=7d', headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify([{ email: a }, { email: b }]) });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ offboardingId: id, created: false });
    o.startWorkers();
    await o.settle(id);

    const holds = await app.inject({ method: 'GET', url: '/v1/holds', headers: auth });
    expect(holds.json().holds.map((hold: { email: string; phase: string }) => [hold.email, hold.phase])).toEqual([[a, 'holding'], [b, 'holding']]);

    const undone = await app.inject({ method: 'POST', url: `/v1/offboardings/${id}/undo`, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify({ by: 'dashboard user', users: [a] }) });
    expect(undone.statusCode).toBe(200);
    expect(undone.json().results[0]).toMatchObject({ email: a, result: 'undone', reactivating: true, seat: expect.stringContaining('reactivation assigns a Member seat (paid)') });
    await o.settle(id);
    await o.advance(7 * DAY + 60_000);
    await o.settle(id);

    const status = await app.inject({ method: 'GET', url: `/v1/offboardings/${id}`, headers: auth });
    expect(status.json().leavers.map((l: { email: string; phase: string }) => [l.email, l.phase])).toEqual([[a, 'undone'], [b, 'removed']]);
    expect(status.json().leavers[0].undo.by).toBe('dashboard user (control API)');
    const report = await app.inject({ method: 'GET', url: `/v1/offboardings/${id}/report?format=csv`, headers: auth });
    expect(report.body.split('\n')[0]).toMatch(/^row,line,email,userId,phase/);
    expect(report.body).toContain(',removed,');
    const missing = await app.inject({ method: 'GET', url: '/v1/offboardings/o000000000000', headers: auth });
    expect(missing.statusCode).toBe(404);
    await app.close();
  });

  it('takes the column options as query parameters: refused without them (422 naming the column), planned on the date with them', async () => {
    const { h, o } = await open();
    const app = offboardingDashboard({ h, o });
    const [a] = await h.deactivatableEmails(1);
    const payload = `email,Leaving Date,Notes\n${a},2030-03-01,-\n`;
    const refused = await app.inject({ method: 'POST', url: '/v1/offboardings?tz=Europe/Berlin&dryRun=true', headers: { ...auth, 'content-type': 'text/csv' }, payload });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toContain('column "Leaving Date" holds dates');
    expect(refused.json().error.hint).toContain('--leave-date-column "Leaving Date"');
    const planned = await app.inject({ method: 'POST', url: '/v1/offboardings?tz=Europe/Berlin&dryRun=true&leaveDateColumn=Leaving%20Date&ignoreColumn=Notes', headers: { ...auth, 'content-type': 'text/csv' }, payload });
    expect(planned.statusCode).toBe(200);
    // The last day ends at 24:00 in Berlin (UTC+1 in March): 2030-03-01T23:00Z.
    expect(planned.json().plan.leavers[0]).toMatchObject({ verdict: 'deactivate-on-date', leaveAt: Date.UTC(2030, 2, 1, 23), leaveDate: { column: 'Leaving Date', readAs: 'end of last day 2030-03-01 in Europe/Berlin' } });
    expect(planned.json().plan.options.columns).toEqual({ columns: { leaveDate: 'Leaving Date' }, ignore: ['Notes'] });
    await app.close();
  });
});
