import type { MigrationInput } from '../../migrate/migration-input.js';
import { migrationInputSchema } from '../../migrate/migration-input.js';
import { queueMigration, type MigrationQueues, type PlannedMigration } from '../../migrate/plan-migration.js';
import type { ChangeKindHandler } from '../approvals/change-kind.js';
import { fingerprintOfBatchPlan } from '../approvals/plan-fingerprint.js';

export interface MigrationPlanning {
  /** Plans a migration's input against live state (plan-migration.ts, with the process's client and config). */
  plan(input: MigrationInput): Promise<PlannedMigration>;
  queues: MigrationQueues;
}

/**
 * A migration (`seatflow migrate domain|columns|webhooks --apply`, the dashboard's migration forms). Re-planned, it
 * reads live state again: a user who confirmed an address, a column renamed or a webhook re-pointed since makes the
 * plan stale. Its plan is the rows of the migration, as `seatflow migrate` printed them.
 */
export function createMigrationKind(planning: MigrationPlanning): ChangeKindHandler {
  return {
    kind: 'migration',
    async replan(raw) {
      const planned = await planning.plan(migrationInputSchema.parse(raw));
      return {
        plan: fingerprintOfBatchPlan(planned.plan),
        queue: async () => {
          const queued = await queueMigration(planned, planning.queues);
          return { id: queued.id, created: queued.created };
        },
      };
    },
  };
}
