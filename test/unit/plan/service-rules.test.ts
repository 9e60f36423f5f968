import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../../src/manifest/load-manifest.js';
import { formatPlan } from '../../../src/plan/format-plan.js';
import { preflight, type PreflightOptions } from '../../../src/plan/preflight.js';
import { createFakeApi, demoOrg, type FakeOrg } from './fake-api.js';

const P1 = 5420192837465012;

async function plan(csv: string, options: Omit<PreflightOptions, 'api'> = {}, shape: (org: FakeOrg) => void = () => {}) {
  const manifest = await loadManifest({ path: '/data/m.csv', content: csv });
  expect(manifest.invalid).toEqual([]);
  const org = demoOrg(0);
  shape(org);
  return preflight(manifest, { api: createFakeApi(org), ...options });
}
const verdicts = (result: Awaited<ReturnType<typeof plan>>) => [...result.rows].map((row) => [row.verdict, row.rule ?? '']);
const userOf = (org: FakeOrg, email: string) => org.users.find((user) => user.email === email)!;
/** The service lists group ownership and these users own none: a remove row without a target is plannable. */
const ownNoGroups = (org: FakeOrg) => {
  org.groups = [];
};

describe('the pre-flight follows the service as documented in late 2026 (docs/service.md)', () => {
  it('refuses GUEST as a downgrade for an internal user (and one whose isInternal is unknown), and plans it for an external Member', async () => {
    const result = await plan('email,action,seatType,planId\nmarcus.chen@acme.example,downgrade,GUEST,\njordan.lee@acme.example,downgrade,GUEST,\nexternal.member@partner.example,downgrade,GUEST,\n', {}, (org) => {
      userOf(org, 'marcus.chen@acme.example').seats = [{ planId: P1, seatType: 'MEMBER', isInternal: true }];
      org.users.push({ ...userOf(org, 'jordan.lee@acme.example'), id: 7777, email: 'external.member@partner.example', seats: [{ planId: P1, seatType: 'MEMBER', isInternal: false }] });
    });
    expect(verdicts(result)).toEqual([['refused', 'guest-for-internal-user'], ['refused', 'guest-for-internal-user'], ['change', '']]);
    expect(result.rows.at(0)?.reason).toMatch(/this user is internal/);
    expect(result.rows.at(1)?.reason).toMatch(/did not say whether this user is internal/);
  });

  it('refuses a licensedSheetCreator change for a user who is not a System Admin, and plans it for an admin or a row that makes one', async () => {
    const result = await plan(
      'email,action,licensedSheetCreator,admin,firstName\nmarcus.chen@acme.example,update,false,,\nelena.garcia@acme.example,update,false,,\njordan.lee@acme.example,update,false,true,\npriya.shah@acme.example,update,,,Pri\n',
      {},
      (org) => {
        for (const user of org.users) user.licensedSheetCreator = true;
      },
    );
    expect(verdicts(result)).toEqual([['refused', 'licensed-sheet-creator-admin-only'], ['change', ''], ['change', ''], ['change', '']]);
  });

  it('says which seat each add costs: a Provisional Member seat, or a paid Member seat for a System Admin', async () => {
    const result = await plan('email,action,admin\nnew.one@acme.example,add,\nnew.admin@acme.example,add,true\n');
    expect([...result.rows].map((row) => row.reason)).toEqual([
      'adds a PROVISIONAL_MEMBER seat: free until the review period ends, then a free seat unless upgraded to a paid Member',
      'costs a paid MEMBER seat (a System Admin is added as a Member)',
    ]);
  });

  it('refuses deactivate and reactivate on Smartsheet Gov, and plans them elsewhere', async () => {
    const csv = 'email,action\nmarcus.chen@acme.example,deactivate\ntaylor.brooks@acme.example,reactivate\njordan.lee@acme.example,remove\n';
    const gov = await plan(csv, { region: 'GOV' }, ownNoGroups);
    expect(verdicts(gov)).toEqual([['refused', 'unavailable-on-gov'], ['refused', 'unavailable-on-gov'], ['change', '']]);
    expect(gov.rows.at(0)?.reason).toMatch(/Smartsheet Gov does not offer deactivate user/);
    const eu = await plan(csv, { region: 'EU' }, ownNoGroups);
    expect(verdicts(eu)).toEqual([['change', ''], ['change', ''], ['change', '']]);
  });

  it('refuses deactivate, reactivate and remove of users a configured external source manages, naming the source', async () => {
    const result = await plan('email,action\nmarcus.chen@acme.example,deactivate\njordan.lee@acme.example,remove\ntaylor.brooks@acme.example,reactivate\nlee.park@partner.example,remove\n', {
      externalSources: [{ name: 'Okta', domains: ['acme.example'], emails: [] }],
    }, ownNoGroups);
    expect(verdicts(result)).toEqual([['refused', 'externally-managed'], ['refused', 'externally-managed'], ['refused', 'externally-managed'], ['change', '']]);
    expect(result.rows.at(1)?.reason).toBe('jordan.lee@acme.example is managed by Okta (config externalSources); the service refuses to remove it through the API: do it in Okta');
    expect(result.notes).toBeUndefined();
  });

  it('says once, under the rows, that nothing on the wire tells an externally managed user when no source is configured', async () => {
    const result = await plan('email,action\nmarcus.chen@acme.example,deactivate\njordan.lee@acme.example,remove\n', {}, ownNoGroups);
    expect(verdicts(result)).toEqual([['change', ''], ['change', '']]);
    expect(result.notes).toEqual([expect.stringMatching(/^2 deactivate, reactivate or remove rows will be refused when run if the user is managed by an identity provider/)]);
    expect(formatPlan(result)).toMatch(/\nNote: 2 deactivate, reactivate or remove rows/);
  });

  it('flags only the user with a value seatflow does not know; the other rows are planned', async () => {
    const result = await plan(
      'email,action,seatType\nmarcus.chen@acme.example,deactivate,\njordan.lee@acme.example,deactivate,\npriya.shah@acme.example,downgrade,CONTRIBUTOR\ndana.whitfield@acme.example,downgrade,CONTRIBUTOR\nnoah.fischer@acme.example,deactivate,\n',
      {},
      (org) => {
        const marcus = userOf(org, 'marcus.chen@acme.example');
        delete marcus.status;
        marcus.unrecognized = [{ field: 'status', value: 'ON_LEAVE' }];
        userOf(org, 'priya.shah@acme.example').seats = [{ planId: P1, seatType: 'MEMBER', unrecognized: [{ field: 'seatType', value: 'SUPER_SEAT' }] }];
      },
    );
    expect(verdicts(result)).toEqual([['refused', 'unknown-value'], ['change', ''], ['refused', 'unknown-value'], ['change', ''], ['change', '']]);
    expect(result.rows.at(0)?.reason).toMatch(/status "ON_LEAVE"/);
    expect(result.rows.at(2)?.reason).toMatch(/seatType "SUPER_SEAT"/);
  });
});

describe('consumer mail domains in the pre-flight (docs/service.md#consumer-mail-domains)', () => {
  it('refuses the published domains with 1359 and plans a domain that is not on the list', async () => {
    const result = await plan('email,action\nsomeone@duck.com,deactivate\nsomeone@web.de,deactivate\nsomeone@googlemail.com,deactivate\n', {}, (org) => {
      for (const email of ['someone@duck.com', 'someone@web.de', 'someone@googlemail.com']) org.users.push({ ...userOf(org, 'jordan.lee@acme.example'), id: org.users.length + 5000, email });
    });
    expect([...result.rows].map((row) => [row.verdict, row.rule ?? '', row.errorCode])).toEqual([
      ['refused', 'isp-domain', 1359],
      ['refused', 'isp-domain', 1359],
      ['change', '', undefined],
    ]);
  });
});
