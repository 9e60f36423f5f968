import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { planManifest } from '../../src/plan/plan-manifest.js';
import { formatPlan } from '../../src/plan/format-plan.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/start-reference-server.js';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../jobs/examples');
const guardrails = { destructiveMaxCount: 25, destructiveMaxShare: 0.05, protectedAccounts: [], maxRows: 1_000_000 };

describe('seatflow plan against the reference server', () => {
  let sim: RunningReferenceServer;
  let api: SmartsheetClient;
  beforeAll(async () => {
    sim = await startReferenceServer({ rateLimit: 'off' });
    api = createSmartsheetClient({ baseUrl: sim.url, accessToken: sim.tokens.admin, integrationOrg: '', timeouts: { connectMs: 5000, headersMs: 10000, bodyMs: 10000 } });
  });
  afterAll(async () => {
    await api.close();
    await sim.close();
  });

  const verdicts = async (file: string) => {
    const { plan } = await planManifest({ path: path.join(examples, file), api, guardrails });
    return { plan, list: [...plan.rows].map((row) => `${row.verdict}${row.rule === undefined ? '' : ` ${row.rule}`}`) };
  };

  it('plans the HR offboarding example: change, no-op, refused and not-found rows', async () => {
    const { plan, list } = await verdicts('hr-offboarding.csv');
    expect(list).toEqual(['change', 'change', 'change', 'no-op', 'refused isp-domain', 'refused status-not-eligible', 'not-found']);
    expect(plan.rows.at(0)?.target).toMatchObject({ userId: expect.any(Number), transferToUserId: expect.any(Number) });
    expect(plan.apiCalls).toBeLessThanOrEqual(4);
    expect(formatPlan(plan)).toContain('7 rows: 3 change, 1 no-op, 2 refused, 1 not-found, 0 conflict');
  });

  it('plans the license downgrade example', async () => {
    const { list } = await verdicts('license-downgrade.csv');
    expect(list).toEqual([
      'change',
      // GUEST is a seat for external users only; jordan.lee is internal (docs/service.md#downgrade-and-upgrade).
      'refused guest-for-internal-user',
      'refused admin-without-removeAdminStatus',
      'no-op',
      'no-op',
      'refused plan-ambiguous',
      // taylor.brooks is deactivated: deactivation took the Member seat away already (docs/service.md#seats-follow-the-lifecycle).
      'no-op',
      'change',
    ]);
  });

  it('plans the e-mail domain migration example', async () => {
    const { list } = await verdicts('email-domain-migration.csv');
    expect(list).toEqual(['change', 'change', 'change', 'change', 'conflict already-exists']);
  });

  it('plans the column migration example', async () => {
    const { list } = await verdicts('column-migration.json');
    expect(list).toEqual(['change', 'no-op', 'change', 'change', 'no-op', 'not-found', 'change']);
  });

  it('refuses user rows planned with a token that is not a System Admin, before reading anything else', async () => {
    const asDana = createSmartsheetClient({ baseUrl: sim.url, accessToken: sim.tokens.user });
    try {
      await expect(planManifest({ path: path.join(examples, 'hr-offboarding.csv'), api: asDana, guardrails })).rejects.toThrow(
        /dana\.whitfield@acme\.example, who is not a System Admin; 7 rows are user administration \(remove, deactivate\)/,
      );
      // Sheet-side rows need no System Admin: the same token plans them.
      const { plan } = await planManifest({ path: path.join(examples, 'column-migration.json'), api: asDana, guardrails });
      expect(plan.summary.total).toBe(7);
    } finally {
      await asDana.close();
    }
  });
});
