import { cancelPending, type CancelRequest, type CancelResult } from '../workflow/cancel-pending.js';
import type { Lifecycle } from '../workflow/lifecycle.js';
import { personReport, type PersonReport } from '../workflow/person-report.js';
import { workflowStatus, type PersonDescription, type WorkflowStatus } from '../workflow/person-status.js';
import type { WorkflowEngine } from '../workflow/workflow-engine.js';
import { domainBatches } from './domain-lifecycle.js';
import { DOMAIN_MIGRATION, type DomainPerson, type DomainRecord } from './domain-workflow-state.js';

/** What status, reports and the dashboard say of a user of a domain migration besides their phase. */
export const DOMAIN_PERSON_DESCRIPTION: PersonDescription<DomainPerson> = {
  waitingPhase: 'scheduled',
  detail: (person) => ({
    newEmail: person.newEmail,
    ...(person.errorCode === undefined ? {} : { errorCode: String(person.errorCode) }),
  }),
};

/** The domain migrations of a target (on its engine): status, report and undo, through the engine. */
export interface DomainMigrations {
  /** Undefined when the id names no domain migration. */
  status(workflowId: string): Promise<WorkflowStatus | undefined>;
  report(workflowId: string): Promise<{ report: PersonReport; workflow: DomainRecord } | undefined>;
  /** Undo until a user's migrate step runs, per user or for the whole migration. */
  undo(workflowId: string, request: CancelRequest): Promise<CancelResult[] | undefined>;
}

export function domainMigrationsOf(engine: WorkflowEngine): DomainMigrations {
  const found = async (workflowId: string) => {
    const hit = await engine.lifecycleOfWorkflow(workflowId).catch(() => undefined);
    if (hit === undefined || hit.lifecycle.name !== DOMAIN_MIGRATION) return undefined;
    const lifecycle = hit.lifecycle as Lifecycle<DomainRecord, DomainPerson>;
    const workflow = await lifecycle.records.get(workflowId);
    return workflow === undefined ? undefined : { lifecycle, workflow };
  };
  const { clock } = engine.context;
  return {
    async status(workflowId) {
      const hit = await found(workflowId);
      if (hit === undefined) return undefined;
      await clock.refresh?.();
      return workflowStatus(engine.context, hit.lifecycle, DOMAIN_PERSON_DESCRIPTION, hit.workflow, clock.now());
    },
    async report(workflowId) {
      const hit = await found(workflowId);
      if (hit === undefined) return undefined;
      await clock.refresh?.();
      return { report: await personReport(hit.lifecycle, DOMAIN_PERSON_DESCRIPTION, hit.workflow, domainBatches(hit.workflow), engine.context.batches, new Date(clock.now())), workflow: hit.workflow };
    },
    async undo(workflowId, request) {
      const hit = await found(workflowId);
      if (hit === undefined) return undefined;
      return cancelPending(engine.context, hit.lifecycle, hit.workflow, request, { waitingPhase: 'scheduled', stepBatches: domainBatches(hit.workflow) });
    },
  };
}
