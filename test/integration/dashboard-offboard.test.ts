import { describe, expect, it } from 'vitest';
import { useOffboardingHarnesses } from '../helpers/offboarding-harness.js';
import { offboardingDashboard } from '../helpers/offboarding-dashboard.js';
import { csrfOf, follow, getPage, postFile, postForm, signIn, textOf } from '../unit/control/dashboard-sign-in.js';

const { open } = useOffboardingHarnesses();

describe('dashboard: start an offboarding from the page', () => {
  it('plans an uploaded leavers file leaver by leaver, starts it on confirmation, names it after the file, and finds it again', async () => {
    const { h, o } = await open();
    const app = offboardingDashboard({ h, o }, { maxPlanRows: 5 });
    try {
      const [a, b] = await h.deactivatableEmails(2);
      const file = `email,transferTo\n${a},\n${b},\nnobody.here@acme.example,\n`;
      const jar = await signIn(app);
      const form = await getPage(app, jar, '/offboardings/new');
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('<a href="/offboardings/new" aria-current="page">Offboard leavers</a>');
      expect(form.body).toContain('value="7d"');

      // Without the form's CSRF token nothing is even planned.
      expect((await postFile(app, jar, '/offboardings/new', { hold: '3d' }, { field: 'leavers', name: 'q4-leavers.csv', content: file })).statusCode).toBe(403);
      const preview = await follow(app, jar, await postFile(app, jar, '/offboardings/new', { _csrf: csrfOf(form.body), hold: '3d', transferTo: '', tz: '' }, { field: 'leavers', name: 'q4-leavers.csv', content: file }));
      expect(preview.statusCode).toBe(200);
      const planText = textOf(preview.body);
      expect(planText).toContain('Offboarding plan of q4-leavers.csv');
      expect(planText).toMatch(new RegExp(`${a} row \\d+ · line \\d+ deactivate now deactivated as soon as it starts removed 3d after the deactivation`));
      expect(planText).toMatch(/nobody\.here@acme\.example row \d+ · line \d+ refused nothing/);
      expect(planText).toContain('hold 3d');
      // Two leavers of three calls each (deactivate, re-check, remove); the refused one none.
      expect(planText).toContain('Calls to apply: about 6 (about 1 s at 300 calls per 60 s, the configured rate)');
      expect(await o.system.store.list()).toEqual([]);

      const action = /action="(\/offboardings\/new\/[0-9a-f]+\/submit)"/.exec(preview.body)?.[1];
      expect(action).toBeDefined();
      // The same confirmation as a manifest's plan: a ticket or reason for the audit trail.
      expect(preview.body).toMatch(/<input id="reason" name="reason" type="text"/);
      const unconfirmed = await follow(app, jar, await postForm(app, jar, action!, { _csrf: csrfOf(preview.body) }));
      expect(textOf(unconfirmed.body)).toContain('Nothing was started: tick the confirmation box to start the offboarding.');
      expect(await o.system.store.list()).toEqual([]);
      const started = await postForm(app, jar, action!, { _csrf: csrfOf(preview.body), confirm: 'true' });
      expect(started.statusCode).toBe(303);
      const [workflow] = await o.system.store.list();
      expect(started.headers.location).toMatch(new RegExp(`^/offboardings/${workflow!.id}\\?done=`));
      expect(textOf((await getPage(app, jar, String(started.headers.location))).body)).toContain('Offboarding started by control-token');
      expect(workflow).toMatchObject({ source: 'q4-leavers.csv', holdMs: 3 * 86_400_000, total: 3 });
      expect((await h.system.store.get(workflow!.deactivateBatch))?.source).toBe(`q4-leavers.csv (offboarding ${workflow!.id}: deactivate step)`);
      // The preview is used up; the same file and options again lead to the offboarding it started.
      const used = await follow(app, jar, await postForm(app, jar, action!, { _csrf: csrfOf(preview.body), confirm: 'true' }));
      expect(used.statusCode).toBe(410);
      const again = await getPage(app, jar, '/offboardings/new');
      const known = await postFile(app, jar, '/offboardings/new', { _csrf: csrfOf(again.body), hold: '3d' }, { field: 'leavers', name: 'q4-leavers.csv', content: file });
      expect(known.statusCode).toBe(303);
      expect(known.headers.location).toMatch(new RegExp(`^/offboardings/${workflow!.id}\\?done=`));

      o.startWorkers();
      await o.settle(workflow!.id);
      expect((await o.leaver(workflow!.id, a!)).phase).toBe('holding');

      // A file over control.maxPlanRows: the form again, saying what to do; nothing planned.
      const big = `email\n${Array.from({ length: 6 }, (_, i) => `leaver.${i}@acme.example`).join('\n')}\n`;
      const form3 = await getPage(app, jar, '/offboardings/new');
      const refused = await follow(app, jar, await postFile(app, jar, '/offboardings/new', { _csrf: csrfOf(form3.body), hold: '7d' }, { field: 'leavers', name: 'big.csv', content: big }));
      expect(refused.statusCode).toBe(413);
      expect(textOf(refused.body)).toContain('the leavers file has more than 5 rows');
      expect(textOf(refused.body)).toContain('seatflow offboard FILE');
      // A bad option: said, with the values kept.
      const form4 = await getPage(app, jar, '/offboardings/new');
      const badHold = await follow(app, jar, await postFile(app, jar, '/offboardings/new', { _csrf: csrfOf(form4.body), hold: 'soon' }, { field: 'leavers', name: 'x.csv', content: file }));
      expect(badHold.statusCode).toBe(400);
      expect(textOf(badHold.body)).toContain('--hold &quot;soon&quot; is not a duration');
      expect(badHold.body).toContain('value="soon"');
    } finally {
      await app.close();
    }
  });

  it('refuses a leave date in a column it does not know, and plans on that date once the form says which column it is', async () => {
    const { h, o } = await open();
    const app = offboardingDashboard({ h, o });
    try {
      const [a] = await h.deactivatableEmails(1);
      const file = `Email,Leaving Date,Badge Photo Taken\n${a},2099-03-31,2020-01-01\n`;
      const jar = await signIn(app);
      const form = await getPage(app, jar, '/offboardings/new');
      const refused = await follow(app, jar, await postFile(app, jar, '/offboardings/new', { _csrf: csrfOf(form.body), hold: '7d', tz: 'UTC' }, { field: 'leavers', name: 'hr.csv', content: file }));
      expect(refused.statusCode).toBe(422);
      expect(textOf(refused.body)).toContain('Leaving Date');
      expect(await o.system.store.list()).toEqual([]);

      const again = await getPage(app, jar, '/offboardings/new');
      const fields = { _csrf: csrfOf(again.body), hold: '7d', tz: 'UTC', leaveDateColumn: 'Leaving Date', ignoreColumns: 'Badge Photo Taken' };
      const preview = await follow(app, jar, await postFile(app, jar, '/offboardings/new', fields, { field: 'leavers', name: 'hr.csv', content: file }));
      expect(preview.statusCode).toBe(200);
      // The last day ends at the end of that day: deactivated at midnight after it, not now.
      expect(textOf(preview.body)).toMatch(new RegExp(`${a} row \\d+ · line \\d+ on the leave date deactivated 2099-04-01`));
    } finally {
      await app.close();
    }
  });
});
