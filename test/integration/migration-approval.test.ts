import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeKinds } from '../../src/governance/approvals/change-kind.js';
import { fingerprintOfBatchPlan } from '../../src/governance/approvals/plan-fingerprint.js';
import { createMigrationKind } from '../../src/governance/kinds/migration-kind.js';
import type { MigrationInput } from '../../src/migrate/migration-input.js';
import { migrationIdOf, planMigration, queueMigration, type MigrationQueues } from '../../src/migrate/plan-migration.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import type { EngineContext } from '../../src/workflow/workflow-context.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { ALICE, BOB, GUARDRAILS, createGovernanceHarness, type GovernanceHarness } from '../helpers/governance-harness.js';
import { ROOT } from '../helpers/run-seatflow.js';

let redis: TestRedis;
let g: GovernanceHarness;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => redis?.stop());
beforeEach(async () => {
  g = await createGovernanceHarness(redis, { approvals: { kinds: ['migration'] } });
});
afterEach(async () => g?.close());

const base64 = (file: string) => readFileSync(path.join(ROOT, file)).toString('base64');
const INPUT: MigrationInput = {
  migration: 'columns',
  sheetsFile: 'jobs/examples/column-migration-sheets.txt',
  sheetsBase64: base64('jobs/examples/column-migration-sheets.txt'),
  specFile: 'jobs/examples/column-standard.json',
  specBase64: base64('jobs/examples/column-standard.json'),
};

describe('a migration through the approvals gate', { timeout: 90_000 }, () => {
  it('waits for a second person, who re-plans it against live state: a change since makes it wait again, the same plan runs', async () => {
    const plan = (input: MigrationInput) => planMigration(input, { api: g.h.api, guardrails: GUARDRAILS, nowMs: Date.now() });
    const queues: MigrationQueues = { engine: {} as EngineContext, system: g.h.system, target: g.h.server.url };
    const kinds = changeKinds(...g.kinds.values(), createMigrationKind({ plan, queues }));
    const planned = await plan(INPUT);
    const id = migrationIdOf(planned, g.h.server.url);
    const request = { kind: 'migration' as const, id, subject: planned.plan.source.path, target: g.h.server.url, sim: true, plan: fingerprintOfBatchPlan(planned.plan), guardrails: [], input: INPUT, requestedBy: ALICE, reason: 'CHG-31: asset columns' };
    const gated = await g.governance.gate.submit(request, async () => queueMigration(planned, queues));
    expect(gated.status).toBe('awaiting-approval');
    expect(await g.h.mutations()).toHaveLength(0);

    // Someone renames Notes meanwhile: the approver's re-plan differs, and the request waits again with the difference.
    const register = g.h.server.context.state.sheets.get(DEMO.itAssetSheetId)!;
    register.columns.find((column) => column.title === 'Notes')!.title = 'Comments';
    const stale = await g.governance.gate.approve(id, BOB, {}, kinds);
    expect(stale.status).toBe('replanned');

    // The plan it now waits with (the same live state) is queued as approved: the batch the re-plan makes.
    const approved = await g.governance.gate.approve(id, BOB, {}, kinds);
    expect(approved).toMatchObject({ status: 'queued' });
    g.h.startWorkers();
    const queuedId = approved.status === 'queued' ? approved.queued.id : '';
    const finished = await g.h.waitForState(queuedId, ['finished'], 60_000);
    expect(finished.counts.failed).toBe(0);
    expect(register.columns.find((column) => column.title === 'Comments')?.width).toBe(300);
  });
});
