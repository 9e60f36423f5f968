import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import { checkReconciliationDrift, type PolicyInForce } from '../../../src/events/drift-check.js';
import { checkLifecycleDrift, createHrRecords } from '../../../src/events/lifecycle-drift.js';
import type { OutsideChange } from '../../../src/events/outside-change.js';
import { policiesInForce } from '../../../src/events/policies-in-force.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { startReferenceServer, type RunningReferenceServer } from '../../../src/server/index.js';
import { createAcceptedExports } from '../../../src/sync/accepted-exports.js';
import { loadLifecyclePolicy } from '../../../src/sync/load-lifecycle-policy.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const redis = useTestRedisClient();
const GUARDRAILS = { destructiveMaxCount: 25, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1000 };
let server: RunningReferenceServer;
let api: SmartsheetClient;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer({ rateLimit: 'off', users: 10 });
  api = createSmartsheetClient({ baseUrl: server.url, accessToken: server.tokens.admin });
  dir = mkdtempSync(path.join(os.tmpdir(), 'sf-drift-'));
});
afterAll(async () => {
  await api.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const outside = (email: string, change: Record<string, unknown>) =>
  fetch(`${server.origin}/_sim/outside-change`, { method: 'POST', headers: { authorization: `Bearer ${server.tokens.admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ user: email, ...change }) });
const changeOf = (email: string): OutsideChange => ({ event: 'user.seatType.updated', userId: 1, email, planId: 5420192837465012, at: new Date().toISOString(), why: 'another-user' });
const now = () => new Date(server.clock.now());

describe('drift against a licence policy (docs/events.md#drift)', () => {
  it('finds a seat the policy does not give, and nothing for a user whose seat it gives or whom it excludes', async () => {
    writeFileSync(path.join(dir, 'seats.csv'), 'email,seat\ncasey.nguyen@acme.example,CONTRIBUTOR\nelena.garcia@acme.example,CONTRIBUTOR\n');
    const file = path.join(dir, 'policy.json');
    writeFileSync(file, JSON.stringify({ planId: 5420192837465012, rules: [{ name: 'HR seats', when: { inFile: 'seats.csv' }, then: { seatFromColumn: 'seat' } }], onDrift: 'reconcile' }));
    const policy: PolicyInForce = { path: file, kind: 'reconciliation', from: 'config events.policies' };
    const options = { api, guardrails: GUARDRAILS, now: now() };
    expect(await checkReconciliationDrift(changeOf('casey.nguyen@acme.example'), policy, options)).toBeUndefined();
    await outside('casey.nguyen@acme.example', { change: 'seat', seatType: 'MEMBER' });
    expect(await checkReconciliationDrift(changeOf('casey.nguyen@acme.example'), policy, options)).toMatchObject({ email: 'casey.nguyen@acme.example', now: 'MEMBER', wanted: 'CONTRIBUTOR', seatWanted: 'CONTRIBUTOR', rule: 'HR seats', onDrift: 'reconcile' });
    // Elena is a System Admin: the policy excludes admins.
    expect(await checkReconciliationDrift(changeOf('elena.garcia@acme.example'), policy, options)).toBeUndefined();
    expect(await policiesInForce([file], undefined)).toEqual([{ path: file, kind: 'reconciliation', from: 'config events.policies' }]);
  });
});

describe('drift against the lifecycle policy of an HR sync (docs/events.md#drift)', () => {
  it('finds an employed person deactivated or given another seat, and a leaver active again; says nothing of protected or unknown people', async () => {
    const file = path.resolve('jobs/examples/lifecycle-policy.json');
    const policy: PolicyInForce = { path: file, kind: 'lifecycle', from: 'schedule nightly' };
    const prefix = redis.server.prefix();
    const loaded = await loadLifecyclePolicy(file);
    const past = server.clock.now() - 86_400_000;
    await createAcceptedExports(redis.client, createQueueKeys(prefix), server.url, loaded.key).accept(
      { sha256: 'a'.repeat(64), exportedAt: past, exportedAtFrom: 'file-modified', acceptedAt: new Date(past).toISOString(), employees: 4, file: 'hr.csv', runId: 'r1' },
      [
        ['E1', { e: 'jordan.lee@acme.example', s: 'a', d: 'Engineering' }],
        ['E2', { e: 'priya.shah@acme.example', s: 'l', end: past }],
        ['E3', { e: 'marcus.chen@acme.example', s: 'a', d: 'Sales', t: 'Account Executive' }],
        ['E4', { e: 'admin@acme.example', s: 'a', d: 'IT' }],
      ],
    );
    const options = { api, guardrails: GUARDRAILS, now: now(), records: createHrRecords(redis.client, createQueueKeys(prefix), server.url) };
    expect(await checkLifecycleDrift(changeOf('jordan.lee@acme.example'), policy, options)).toBeUndefined();
    await outside('jordan.lee@acme.example', { change: 'deactivate' });
    expect(await checkLifecycleDrift(changeOf('jordan.lee@acme.example'), policy, options)).toMatchObject({ now: 'deactivated', rule: 'employed', onDrift: 'notify' });
    // Priya left by the export and is still active: the sync has not offboarded her, or an admin brought her back.
    expect(await checkLifecycleDrift(changeOf('priya.shah@acme.example'), policy, options)).toMatchObject({ now: 'active', rule: 'leavers' });
    // Marcus (Sales, no lead title) gets the default CONTRIBUTOR; he holds MEMBER.
    expect(await checkLifecycleDrift(changeOf('marcus.chen@acme.example'), policy, options)).toMatchObject({ now: 'MEMBER', wanted: 'CONTRIBUTOR', rule: 'seats.default' });
    // The policy protects admin@acme.example; dana is in no export.
    expect(await checkLifecycleDrift(changeOf('admin@acme.example'), policy, options)).toBeUndefined();
    expect(await checkLifecycleDrift(changeOf('dana.whitfield@acme.example'), policy, options)).toBeUndefined();
  });
});
