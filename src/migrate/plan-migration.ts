import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { ExternalSource } from '../plan/external-sources.js';
import type { GuardrailCheck, GuardrailLimits } from '../plan/guardrails.js';
import type { BatchPlan } from '../plan/planned-row.js';
import type { BatchSystem } from '../queue/batch-system.js';
import { batchIdOf, type SubmitResult } from '../queue/submit-batch.js';
import type { EngineContext } from '../workflow/workflow-context.js';
import { readColumnSpec } from './column-spec.js';
import type { MigrationInput, MigrationKind } from './migration-input.js';
import { planColumnMigration, type CellConversion } from './plan-column-migration.js';
import { planDomainMigration, type DomainMigrationPlan } from './plan-domain-migration.js';
import { planWebhookMigration } from './plan-webhook-migration.js';
import { readSheetIds } from './read-sheet-ids.js';
import { domainMigrationIdOf, submitDomainMigration } from './submit-domain-migration.js';

/** A migration planned: its rows as a batch plan (for the printers, guardrails and approvals), and the domain's people. */
export interface PlannedMigration {
  kind: MigrationKind;
  input: MigrationInput;
  plan: BatchPlan;
  guardrails: GuardrailCheck;
  /** The domain migration's plan per user (its rows are `plan`'s). */
  domain?: DomainMigrationPlan;
  /** A column migration's type changes: every cell of these columns is converted. */
  conversions?: CellConversion[];
}

export interface PlanMigrationOptions {
  api: SmartsheetApi;
  guardrails: GuardrailLimits & { protectedAccounts: readonly string[] };
  externalSources?: readonly ExternalSource[];
  /** Now on the service's clock (unused webhooks are measured from it). */
  nowMs: number;
}

/** Plans any migration from its input, against live state; changes nothing. */
export async function planMigration(input: MigrationInput, options: PlanMigrationOptions): Promise<PlannedMigration> {
  if (input.migration === 'domain') {
    const domain = await planDomainMigration({ api: options.api, request: input.request, guardrails: options.guardrails, nowMs: options.nowMs, ...(options.externalSources === undefined ? {} : { externalSources: options.externalSources }) });
    return { kind: 'domain', input, plan: domain.plan, guardrails: domain.guardrails, domain };
  }
  if (input.migration === 'columns') {
    const sheets = await readSheetIds(input.sheetsFile, Buffer.from(input.sheetsBase64, 'base64'));
    const { spec } = await readColumnSpec(input.specFile, Buffer.from(input.specBase64, 'base64'));
    const judged = await planColumnMigration({ api: options.api, sheetIds: sheets, spec, sheetsFile: input.sheetsFile, specFile: input.specFile, guardrails: options.guardrails, nowMs: options.nowMs });
    return { kind: 'columns', input, ...judged };
  }
  const judged = await planWebhookMigration({ api: options.api, request: input.request, guardrails: options.guardrails, nowMs: options.nowMs });
  return { kind: 'webhooks', input, ...judged };
}

/** The id the migration has once queued: the domain migration's workflow, or the batch of the others. */
export function migrationIdOf(planned: PlannedMigration, target: string): string {
  return planned.domain === undefined ? batchIdOf(planned.plan.source.sha256, target) : domainMigrationIdOf(planned.domain, target);
}

/** Where a planned migration is queued: the engine (a domain migration's lifecycle) or the batch system. */
export interface MigrationQueues {
  engine: EngineContext;
  system: Pick<BatchSystem, 'submit'>;
  target: string;
}

/** What queuing made: the workflow or batch id, whether it is new, and the batch (columns, webhooks). */
export interface QueuedMigration {
  id: string;
  created: boolean;
  batch?: SubmitResult;
}

/** Queues exactly the plan given; the same plan queued again finds what it queued. */
export async function queueMigration(planned: PlannedMigration, queues: MigrationQueues): Promise<QueuedMigration> {
  if (planned.domain !== undefined) {
    const submitted = await submitDomainMigration(queues.engine, planned.domain, queues.target);
    return { id: submitted.workflowId, created: submitted.created };
  }
  const batch = await queues.system.submit(planned.plan);
  return { id: batch.batch.id, created: batch.created, batch };
}
