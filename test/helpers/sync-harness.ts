import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Config } from '../../src/core/config.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import type { StartReferenceServerOptions } from '../../src/server/index.js';
import { HR_LIFECYCLES } from '../../src/sync/hr-lifecycles.js';
import { runSync, type SyncRun } from '../../src/sync/run-sync.js';
import { useBatchHarnesses } from './batch-fixtures.js';
import type { BatchHarness } from './batch-harness.js';
import { createOffboardingHarness, DAY, TEST_OFFBOARDING, type OffboardingHarness } from './offboarding-harness.js';

export const SYNC_GUARDRAILS: Config['guardrails'] = { destructiveMaxCount: 1e6, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e6 };

/** The offboarding harness with the joiners and movers lifecycles on its engine, and a sync as `seatflow sync` runs it. */
export interface SyncHarness {
  o: OffboardingHarness;
  /** Writes an HR export (CSV lines) into the harness's folder. */
  writeExport(name: string, lines: readonly string[]): string;
  writePolicy(name: string, policy: object): string;
  sync(exportFile: string, policyFile: string, options?: { apply?: boolean; acceptMissing?: boolean; guardrails?: Config['guardrails'] }): Promise<SyncRun>;
  /** Steps due now run and their rows end (workers must be started). */
  settleAll(timeoutMs?: number): Promise<void>;
}

export function createSyncHarness(h: BatchHarness): SyncHarness {
  const o = createOffboardingHarness(h, TEST_OFFBOARDING, HR_LIFECYCLES);
  const write = (name: string, text: string) => {
    const file = path.join(h.dir, name);
    writeFileSync(file, text);
    return file;
  };
  return {
    o,
    writeExport: (name, lines) => write(name, `${lines.join('\n')}\n`),
    writePolicy: (name, policy) => write(name, JSON.stringify(policy, null, 2)),
    sync: (exportFile, policyFile, options = {}) =>
      runSync({
        exportPath: exportFile,
        policyPath: policyFile,
        api: h.api,
        offboarding: o.system,
        config: { guardrails: options.guardrails ?? SYNC_GUARDRAILS, offboarding: TEST_OFFBOARDING },
        target: h.server.url,
        apply: options.apply ?? true,
        acceptMissing: options.acceptMissing ?? false,
        confirmGuardrails: () => Promise.resolve(false),
        reportDir: path.join(h.dir, 'sync'),
        now: () => o.clock.now(),
      }),
    async settleAll(timeoutMs = 30_000) {
      await o.waitFor(async () => {
        for (const workflow of await o.system.engine.activeWorkflows()) if (!(await o.system.engine.nothingDue(workflow.id))) return false;
        return true;
      }, timeoutMs);
    },
  };
}

/** One test Redis for the file and, per test, a batch harness with a sync harness over it; closed after each test. */
export function useSyncHarnesses(): { open: (serverOptions?: StartReferenceServerOptions) => Promise<{ h: BatchHarness; s: SyncHarness }> } {
  const batches = useBatchHarnesses();
  let current: SyncHarness | undefined;
  afterEach(async () => {
    await current?.o.stopWorkers();
    await current?.o.system.close();
    current = undefined;
  });
  return {
    async open(serverOptions = {}) {
      const h = await batches.open({ rateLimit: 'off', ...serverOptions });
      current = createSyncHarness(h);
      return { h, s: current };
    },
  };
}

/** A user of the reference server by e-mail (one still in the organization, unless `evenRemoved`). */
export function userOf(h: BatchHarness, email: string, evenRemoved = false) {
  return [...h.server.context.state.users.values()].find((user) => user.email === email && (evenRemoved || user.inOrg));
}

/** The seat in the demo plan, VIEWER named CONTRIBUTOR as the service reports it since the sunset. */
export function seatOf(h: BatchHarness, email: string): string | undefined {
  const seat = userOf(h, email)?.seats.find((each) => each.planId === DEMO.planId)?.seatType;
  return seat === 'VIEWER' ? 'CONTRIBUTOR' : seat;
}

/** The user-changing operations of the mutation log on this user, in order. */
export async function changes(h: BatchHarness, email: string): Promise<string[]> {
  const user = userOf(h, email, true);
  if (user === undefined) return [];
  return (await h.mutations()).filter((m) => m.userId === user.id && m.operation !== 'seatChange').map((m) => m.operation);
}

/** A generated member deactivated a few days ago (within the reactivation window), who is in no export yet. */
export function rehireCandidate(h: BatchHarness): string {
  const now = h.server.context.clock.now();
  for (const user of h.server.context.state.users.values()) {
    if (user.status === 'DEACTIVATED' && user.deactivatedAt !== null && now - user.deactivatedAt < 7 * DAY && /\.\d+@acme\.example$/.test(user.email)) return user.email;
  }
  throw new Error('no recently deactivated generated user in the demo organization');
}
