import { createJobRegistry } from '../../jobs/registry.js';
import { governanceSchema } from '../../src/core/governance-config.js';
import { createSilentLogger } from '../../src/core/logger.js';
import type { ChangeKinds } from '../../src/governance/approvals/change-kind.js';
import { changeKinds } from '../../src/governance/approvals/change-kind.js';
import { createGovernance, type Governance } from '../../src/governance/governance.js';
import { createBatchKind } from '../../src/governance/kinds/batch-kind.js';
import { createRevertKind } from '../../src/governance/kinds/revert-kind.js';
import type { Actor } from '../../src/governance/operators/actor.js';
import { openRedis, type RedisHandle } from '../../src/queue/redis/open-redis.js';
import { createBatchHarness, type BatchHarness } from './batch-harness.js';
import type { TestRedis } from './redis-server.js';

export const GUARDRAILS = { destructiveMaxCount: 1e6, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e6 };

/** People of the governance tests: one who asks, two who may approve, one who may only look. */
export const ALICE: Actor = { name: 'alice', role: 'operator', via: 'token' };
export const BOB: Actor = { name: 'bob', role: 'approver', via: 'token' };
export const CAROL: Actor = { name: 'carol', role: 'approver', via: 'token' };
export const VERA: Actor = { name: 'vera', role: 'viewer', via: 'token' };

/**
 * The batch harness (reference server, Redis, the real job types) with governance over the same keys: the audit and
 * notification hooks on the batch store, the gate, and the kinds an approval re-plans (batch, revert).
 */
export interface GovernanceHarness {
  h: BatchHarness;
  governance: Governance;
  kinds: ChangeKinds;
  close(): Promise<void>;
}

export async function createGovernanceHarness(redis: TestRedis, config: unknown = {}): Promise<GovernanceHarness> {
  const prefix = redis.prefix();
  const handle: RedisHandle = await openRedis({ url: redis.url, dataDir: '/tmp', logger: createSilentLogger() });
  // The target is the reference server's URL, which is only known once it runs: governance is built on first use.
  const built: { governance?: Governance } = {};
  const hooks = {
    onOutcome: async (...args: Parameters<NonNullable<Governance['storeHooks']['onOutcome']>>) => built.governance?.storeHooks.onOutcome?.(...args),
    onBatchFinished: async (batchId: string) => built.governance?.storeHooks.onBatchFinished?.(batchId),
  };
  const h = await createBatchHarness(redis, {}, undefined, { hooks, prefix });
  const governance = (built.governance = createGovernance({ redis: handle, prefix, governance: governanceSchema.parse(config), target: h.server.url, sim: true, logger: createSilentLogger() }));
  const kinds = changeKinds(
    createBatchKind({ api: h.api, guardrails: GUARDRAILS }, h.system),
    createRevertKind({ store: h.system.store, registry: createJobRegistry(), api: h.api, guardrails: GUARDRAILS, reactivationWindowDays: 30 }, h.system),
  );
  return {
    h,
    governance,
    kinds,
    async close() {
      await governance.close();
      await h.close();
      await handle.close();
    },
  };
}

/** `count` generated active users holding a MEMBER seat in one plan, not admins: a downgrade to CONTRIBUTOR is planned. */
export function membersOf(h: BatchHarness, count: number): string[] {
  const out: string[] = [];
  for (const user of h.server.context.state.users.values()) {
    // One plan only: a seat row without a planId is refused for a user of several (plan-ambiguous).
    const member = user.seats.length === 1 && user.seats[0]!.seatType === 'MEMBER';
    if (user.status === 'ACTIVE' && user.inOrg && !user.externallyManaged && !user.admin && member && /^[a-z]+\.[a-z]+\.\d+@acme\.example$/.test(user.email)) out.push(user.email);
    if (out.length === count) break;
  }
  if (out.length < count) throw new Error(`only ${out.length} members in the demo organization`);
  return out;
}

/** The seat a user holds now, by e-mail, as the reference server keeps it. */
export function seatOf(h: BatchHarness, email: string): string | undefined {
  for (const user of h.server.context.state.users.values()) if (user.email === email) return user.seats[0]?.seatType;
  return undefined;
}
