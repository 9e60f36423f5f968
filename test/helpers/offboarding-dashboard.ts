import type { FastifyInstance } from 'fastify';
import { buildControlApp } from '../../src/control/build-control-app.js';
import type { ControlDeps } from '../../src/control/control-deps.js';
import { controlDeps } from '../unit/control/control-test-deps.js';
import type { BatchHarness } from './batch-harness.js';
import { TEST_OFFBOARDING, type OffboardingHarness } from './offboarding-harness.js';

/**
 * The dashboard and control API over a batch harness and its offboarding workflow (the reference server as the
 * target, guardrails that hold nothing back), as the offboarding tests of the dashboard and the control API open it.
 */
export function offboardingDashboard({ h, o }: { h: BatchHarness; o: OffboardingHarness }, overrides: Partial<ControlDeps> = {}): FastifyInstance {
  const guardrails = { destructiveMaxCount: 1e6, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e6 };
  return buildControlApp(
    controlDeps({
      target: { label: 'SIMULATION', id: h.server.url, configured: true, sim: true },
      batches: { system: h.system, api: h.api, redis: h.redisHandle.client },
      offboarding: { system: o.system, config: { guardrails, offboarding: TEST_OFFBOARDING } },
      ...overrides,
    }),
  );
}
