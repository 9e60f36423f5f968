import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { governanceSchema } from '../../src/core/governance-config.js';
import { createSilentLogger } from '../../src/core/logger.js';
import { changeKinds } from '../../src/governance/approvals/change-kind.js';
import { createGovernance, type Governance } from '../../src/governance/governance.js';
import { createSyncKind } from '../../src/governance/kinds/sync-kind.js';
import { createOperatorDirectory } from '../../src/governance/operators/operator-directory.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { TOKEN } from '../unit/control/control-test-deps.js';
import type { BatchHarness } from './batch-harness.js';
import { offboardingDashboard } from './offboarding-dashboard.js';
import { TEST_OFFBOARDING } from './offboarding-harness.js';
import { SYNC_GUARDRAILS, type SyncHarness } from './sync-harness.js';

/** Operators of the sync tests: alice asks, bob approves. */
export const ALICE_TOKEN = 'alice-token-0123456789abcdef0123456789';
export const BOB_TOKEN = 'bob-token-0123456789abcdef0123456789abcd';
const GOVERNANCE = {
  operators: [
    { name: 'alice', role: 'operator', token: ALICE_TOKEN },
    { name: 'bob', role: 'approver', token: BOB_TOKEN },
  ],
  approvals: { changesAbove: 2 },
};

/** A lifecycle policy of the tests: everyone CONTRIBUTOR but Engineering (MEMBER); 20% missing is a broken export. */
export const SYNC_POLICY = {
  name: 'acme-hr-http',
  timeZone: 'UTC',
  planId: DEMO.planId,
  seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' },
  leavers: { hold: '7d', transferTo: 'admin@acme.example' },
  safety: { maxMissingShare: 0.2 },
};

export const SYNC_HEADER = 'Employee ID,Work Email,Status,Hire Date,Department,Job Title,Generated At';

/**
 * The control API and dashboard with syncs (a policy folder in the harness's folder holding `lifecycle.json`), over
 * the sync harness's workflows; with `governance`, the approvals gate of alice and bob (changesAbove 2) too.
 */
export function syncDashboard({ h, s }: { h: BatchHarness; s: SyncHarness }, options: { governance?: boolean } = {}): { app: FastifyInstance; policyDir: string; governance?: Governance } {
  const policyDir = path.join(h.dir, 'policies');
  mkdirSync(policyDir, { recursive: true });
  s.writePolicy(path.join('policies', 'lifecycle.json'), SYNC_POLICY);
  const config = { guardrails: SYNC_GUARDRAILS, offboarding: TEST_OFFBOARDING };
  const now = () => s.o.clock.now();
  const governance = options.governance === true ? createGovernance({ redis: h.redisHandle, prefix: h.prefix, governance: governanceSchema.parse(GOVERNANCE), target: h.server.url, sim: true, logger: createSilentLogger() }) : undefined;
  const app = offboardingDashboard(
    { h, o: s.o },
    {
      sync: { offboarding: s.o.system, config, policyDir, dir: path.join(h.dir, 'sync'), now },
      ...(governance === undefined
        ? {}
        : {
            governance: {
              operators: createOperatorDirectory(governanceSchema.parse(GOVERNANCE), TOKEN),
              gate: governance.gate,
              approvals: governance.approvals,
              audit: governance.audit,
              deliveries: governance.deliveries,
              kinds: changeKinds(createSyncKind({ api: h.api, offboarding: s.o.system, config, target: h.server.url, now })),
            },
          }),
    },
  );
  if (governance !== undefined) app.addHook('onClose', () => governance.close());
  return { app, policyDir, ...(governance === undefined ? {} : { governance }) };
}
