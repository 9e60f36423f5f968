import type { MigrationInput } from '../migrate/migration-input.js';
import { planMigration, type MigrationQueues, type PlannedMigration } from '../migrate/plan-migration.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import { createBudgetedApi, type BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';

/** How a process plans and queues migrations on its target (the CLI's, and an approver's re-plan). */
export function migrationPlanningOf(runtime: CliRuntime, batch: BatchRuntime, offboarding: OffboardingSystem) {
  const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
  const queues: MigrationQueues = { engine: offboarding.engine.context, system: batch.system, target: batch.target };
  return {
    queues,
    plan: async (input: MigrationInput): Promise<PlannedMigration> => {
      await runtime.serviceClock.refresh();
      return planMigration(input, { api, guardrails: runtime.config.guardrails, externalSources: runtime.config.externalSources, nowMs: runtime.serviceClock.now() });
    },
  };
}
