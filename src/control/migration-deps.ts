import type { MigrationInput } from '../migrate/migration-input.js';
import type { MigrationQueues, PlannedMigration } from '../migrate/plan-migration.js';
import type { WorkflowStatus } from '../workflow/person-status.js';

/**
 * Migrations over HTTP (the dashboard's migration pages): plan one from live state, queue it through the approvals
 * gate, and show where a domain migration's users stand. Built by the composition root with the CLI's own planning.
 */
export interface ControlMigrationDeps {
  plan(input: MigrationInput): Promise<PlannedMigration>;
  queues: MigrationQueues;
  /** A domain migration's users; undefined when the id names none. */
  status(workflowId: string): Promise<WorkflowStatus | undefined>;
}
