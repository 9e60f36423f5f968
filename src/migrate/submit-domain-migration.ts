import { createHash } from 'node:crypto';
import { domainMatches } from '../contract/index.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import { personStepOf } from '../workflow/workflow-shapes.js';
import { personOutcome, type StepEnd } from '../workflow/person-ends.js';
import type { StepJobData } from '../workflow/step-job.js';
import { submitWorkflow } from '../workflow/submit-workflow.js';
import type { EngineContext } from '../workflow/workflow-context.js';
import { checkTimes } from './domain-check-times.js';
import { CHECK_STEPS, createDomainLifecycle, domainBatches, MIGRATE_STEP } from './domain-lifecycle.js';
import type { DomainPerson, DomainRecord } from './domain-workflow-state.js';
import type { DomainMigrationPlan, DomainMove } from './plan-domain-migration.js';

/** `d` + 12 hex of the plan and the target: the same plan submitted again finds its migration, nothing queued twice. */
export function domainMigrationIdOf(plan: Pick<DomainMigrationPlan, 'source'>, target: string): string {
  return `d${createHash('sha256').update(`${plan.source.sha256}\n${target}`).digest('hex').slice(0, 12)}`;
}

export interface SubmittedDomainMigration {
  workflowId: string;
  /** False when this plan had been submitted before: nothing was queued again. */
  created: boolean;
  /** Users with a step to come. */
  queued: number;
}

/**
 * Queues a domain migration on the engine: the record, the step batches (add, make primary, and remove old with
 * --remove-old), one person per user of the plan, the migrate step of each user to migrate due now and, for those
 * whose address may wait for its owner, the check steps until the deadline. Users the plan refused end at once, in
 * every step batch, with its reason.
 */
export async function submitDomainMigration(engine: EngineContext, plan: DomainMigrationPlan, target: string): Promise<SubmittedDomainMigration> {
  const id = domainMigrationIdOf(plan, target);
  const startMs = engine.clock.now();
  const at = new Date(startMs);
  const { request } = plan;
  const checks = checkTimes(startMs, request.confirmWithinDays);
  const record: Omit<DomainRecord, 'state' | 'lifecycle'> = {
    id,
    source: plan.source.path,
    sha256: plan.source.sha256,
    createdAt: at.toISOString(),
    target,
    sim: engine.sim,
    total: plan.moves.length,
    tracksOpen: true,
    from: request.from,
    to: request.to,
    oldAddress: request.oldAddress,
    confirmBy: checks[checks.length - 1] ?? startMs,
    lastCheck: CHECK_STEPS[Math.max(0, checks.length - 1)] ?? CHECK_STEPS[0],
    expectConfirmed: request.validatedDomains !== undefined && domainMatches(`x@${request.to}`, request.validatedDomains),
    addBatch: `${id}-add`,
    primaryBatch: `${id}-primary`,
    ...(request.oldAddress === 'remove' ? { removeBatch: `${id}-remove` } : {}),
  };
  const persons = plan.moves.map((move) => personOf(move, at, plan.readAtMs));
  const open = persons.filter((person) => person.phase === 'scheduled');
  const batches = domainBatches(record);
  const steps: StepJobData[] = open.flatMap((person) => [
    { workflowId: id, row: person.row, step: MIGRATE_STEP, dueAt: startMs },
    ...(person.checked ? checks.map((dueAt, k) => ({ workflowId: id, row: person.row, step: CHECK_STEPS[k] ?? CHECK_STEPS[0], dueAt })) : []),
  ]);
  const submitted = await submitWorkflow(engine, {
    lifecycle: createDomainLifecycle(engine),
    record,
    persons,
    stepBatches: batches.map((batch) => ({ batchId: batch.batchId, label: `${batch.name} step`, rows: [], queued: open.length })),
    endedAtOnce: persons.filter((person) => person.phase !== 'scheduled').flatMap((person) => endedOutcomes(person, batches, engine.sim, at)),
    steps,
  });
  return { workflowId: submitted.workflow.id, created: submitted.created, queued: open.length };
}

function personOf(move: DomainMove, at: Date, readAtMs: number | undefined): DomainPerson {
  const phase = move.verdict === 'change' ? 'scheduled' : move.verdict === 'no-op' ? 'migrated' : 'refused';
  const newAddress = move.newAddress === 'primary' ? undefined : move.newAddress;
  return {
    row: move.row,
    line: 0,
    email: move.email,
    ...(move.userId === undefined ? {} : { userId: move.userId }),
    phase,
    version: 0,
    ...(move.reason === undefined || phase === 'scheduled' ? {} : { reason: move.reason }),
    ...(move.rule === undefined ? {} : { rule: move.rule }),
    notes: [],
    steps: [personStepOf('plan', move.verdict, at, move.reason)],
    newEmail: move.newEmail,
    ...(move.alternateEmailId === undefined ? {} : { alternateEmailId: move.alternateEmailId }),
    ...(readAtMs === undefined || phase !== 'scheduled' || newAddress === undefined ? {} : { reading: { readAt: new Date(readAtMs).toISOString(), newAddress } }),
    checked: move.waits,
    ...(move.errorCode === undefined ? {} : { errorCode: move.errorCode }),
  };
}

/** Outcomes of a user the plan did not migrate, in every step batch: nothing will run for them. */
function endedOutcomes(person: DomainPerson, batches: readonly { batchId: string; action: string }[], sim: boolean, at: Date): RowOutcome[] {
  const end: StepEnd =
    person.phase === 'migrated'
      ? { outcome: 'unchanged', message: person.reason ?? 'already migrated' }
      : { outcome: 'skipped', message: person.reason ?? 'refused at plan time', extra: { category: 'Refused', ...(person.rule === undefined ? {} : { rule: person.rule }), ...(person.errorCode === undefined ? {} : { errorCode: person.errorCode }) } };
  return batches.map((batch) => personOutcome(batch.batchId, person, batch.action, end, sim, at));
}
