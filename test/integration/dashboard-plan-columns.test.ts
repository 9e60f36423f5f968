import { describe, expect, it } from 'vitest';
import { offboardingDashboard } from '../helpers/offboarding-dashboard.js';
import { useOffboardingHarnesses } from '../helpers/offboarding-harness.js';
import { csrfOf, follow, getPage, postFile, postForm, signIn, textOf } from '../unit/control/dashboard-sign-in.js';

const { open } = useOffboardingHarnesses();

describe('dashboard: plan a manifest whose file has columns of its own', () => {
  it('refuses a date in a column it does not know, naming it, and plans and submits once the form says the column means nothing', async () => {
    const { h, o } = await open();
    // The manifest plan's own client (the offboarding pages use the batches' one).
    const app = offboardingDashboard({ h, o }, { api: h.api });
    try {
      const [a] = await h.deactivatableEmails(1);
      const file = `email,action,Leaving Date\n${a},deactivate,2099-03-31\n`;
      const jar = await signIn(app);
      const form = await getPage(app, jar, '/plan');
      expect(form.body).toContain('name="ignoreColumns"');
      const refused = await follow(app, jar, await postFile(app, jar, '/plan', { _csrf: csrfOf(form.body) }, { field: 'manifest', name: 'leavers.csv', content: file }));
      expect(refused.statusCode).toBe(422);
      expect(textOf(refused.body)).toContain('Leaving Date');

      const again = await getPage(app, jar, '/plan');
      const preview = await follow(app, jar, await postFile(app, jar, '/plan', { _csrf: csrfOf(again.body), ignoreColumns: 'Leaving Date' }, { field: 'manifest', name: 'leavers.csv', content: file }));
      expect(preview.statusCode, textOf(preview.body).slice(0, 2000)).toBe(200);
      expect(textOf(preview.body)).toMatch(/1\s*change/);
      // The CLI's line, word for word: the one deactivation is one call.
      expect(textOf(preview.body)).toContain('Calls to apply: about 1 (about 1 s at 300 calls per 60 s, the configured rate)');
      const action = /action="(\/plan\/[0-9a-f]+\/submit)"/.exec(preview.body)?.[1];
      const submitted = await postForm(app, jar, action!, { _csrf: csrfOf(preview.body), confirm: 'true' });
      // Submitted with the same column option as planned: the plan checked is the batch queued.
      expect(submitted.statusCode).toBe(303);
      const [batch] = await h.system.store.list();
      expect(submitted.headers.location).toMatch(new RegExp(`^/batches/${batch!.id}\\?done=`));
      expect(batch).toMatchObject({ total: 1, source: 'leavers.csv' });
    } finally {
      await app.close();
    }
  });
});
