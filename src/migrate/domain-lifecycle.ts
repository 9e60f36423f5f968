import { DelayedError } from 'bullmq';
import { isApiError, ResourceNotFoundError } from '../client/api-error.js';
import type { Action } from '../manifest/action.js';
import type { PlannedRow } from '../plan/planned-row.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import type { Lifecycle, StepRun } from '../workflow/lifecycle.js';
import { personStepOf } from '../workflow/workflow-shapes.js';
import { settledMove, unconfirmedNote, waitOnUnconfirmed } from '../workflow/unconfirmed-row.js';
import { endPerson, type StepBatchRef, type StepEnd } from '../workflow/person-ends.js';
import { createPersonStore } from '../workflow/person-store.js';
import { createRecordStore } from '../workflow/record-store.js';
import type { StepJobData } from '../workflow/step-job.js';
import { planReadingStands } from '../plan/plan-reading-stands.js';
import { primaryStateBefore } from '../../jobs/make-alternate-email-primary.js';
import { DONE_OUTCOMES, rowOutcomeOf } from '../workflow/step-rows.js';
import type { EngineContext } from '../workflow/workflow-context.js';
import { DOMAIN_MIGRATION, DOMAIN_OPEN, domainPersonSchema, domainRecordSchema, type DomainPerson, type DomainPhase, type DomainRecord } from './domain-workflow-state.js';

/** The first step of every user: add the new address, and promote it at once when the service counts it confirmed. */
export const MIGRATE_STEP = 'migrate';
/** Timed re-checks of an address waiting for its owner (domain-check-times.ts); the last one ends the wait. */
export const CHECK_STEPS = ['check-1', 'check-2', 'check-3', 'check-4', 'check-5'] as const;

type BatchName = 'add' | 'primary' | 'remove';

/** The step batches of a domain migration, as reports name them. */
export function domainBatches(workflow: Pick<DomainRecord, 'addBatch' | 'primaryBatch' | 'removeBatch'>): (StepBatchRef & { name: BatchName })[] {
  return [
    { name: 'add', batchId: workflow.addBatch, action: 'add-alternate-email' },
    { name: 'primary', batchId: workflow.primaryBatch, action: 'make-alternate-email-primary' },
    ...(workflow.removeBatch === undefined ? [] : [{ name: 'remove' as const, batchId: workflow.removeBatch, action: 'delete-alternate-email' }]),
  ];
}

/**
 * A domain migration as a lifecycle of the engine: per user, the migrate step reads the user again (or stands on the
 * plan's reading while it stands) and adds the new address (a row of the add step batch), promotes it once the service
 * counts it confirmed (the primary step batch) and, with --remove-old, deletes the old one (the remove step batch);
 * every change is a row run by the existing job types (budget, retries, confirm before repeating, one outcome per row).
 * An address on a domain not validated for the plan waits for its owner's confirmation: the check steps, due on a
 * schedule until the migration's deadline, look again and promote it, and the last one ends the user `unconfirmed`.
 * Undo until the migrate step runs (cancel-pending.ts).
 */
export function createDomainLifecycle(engine: EngineContext): Lifecycle<DomainRecord, DomainPerson> {
  const records = createRecordStore(engine.redis, engine.keys, domainRecordSchema, DOMAIN_MIGRATION);
  const persons = createPersonStore(engine.redis, engine.keys, domainPersonSchema, engine.replicated);
  const lifecycle: Lifecycle<DomainRecord, DomainPerson> = { name: DOMAIN_MIGRATION, steps: [MIGRATE_STEP, ...CHECK_STEPS], records, persons, openPhases: DOMAIN_OPEN, runStep, gaveUp };
  const now = () => new Date(engine.clock.now());

  /**
   * Moves the user from `from` with `change`; undefined when another writer moved them first. A note of a row that was
   * unconfirmed goes as the step goes on: its outcome is known now.
   */
  const move = (workflow: DomainRecord, row: number, from: DomainPhase, change: (current: DomainPerson) => DomainPerson) =>
    persons.update(workflow.id, row, (current) => (current.phase === from ? settledMove(current, change(current)) : undefined));
  const stepped = (current: DomainPerson, step: string, outcome: string, message?: string): DomainPerson['steps'] => [...current.steps, personStepOf(step, outcome, now(), message)];

  /** Every step batch without an outcome of the user's gets `end` (endPerson keeps the outcomes there are). */
  const endRest = (workflow: DomainRecord, person: DomainPerson, end: StepEnd) => endPerson(engine, lifecycle, workflow, person, domainBatches(workflow).map((batch) => ({ batch, end })));

  /** Ends the user (from `from`) and records, in every step batch that has no outcome of theirs yet, how it ended. */
  async function finish(workflow: DomainRecord, person: DomainPerson, from: DomainPhase, end: { phase: DomainPhase; step: string; outcome: string; reason?: string; errorCode?: number; rest: StepEnd; notes?: string[] }): Promise<DomainPerson | undefined> {
    const ended = await move(workflow, person.row, from, (current) => ({
      ...current,
      phase: end.phase,
      ...(end.reason === undefined ? {} : { reason: end.reason }),
      ...(end.errorCode === undefined ? {} : { errorCode: end.errorCode }),
      notes: [...current.notes, ...(end.notes ?? [])],
      steps: stepped(current, end.step, end.outcome, end.reason),
      restEnd: { outcome: end.rest.outcome, message: end.rest.message },
    }));
    if (ended !== undefined) await endRest(workflow, ended, end.rest);
    return ended;
  }

  async function runStep(run: StepRun<DomainRecord, DomainPerson>): Promise<string> {
    const { workflow } = run;
    let person: DomainPerson | undefined = run.person;
    if (!DOMAIN_OPEN.has(person.phase)) {
      // Ended: the step batches' ends written again from the user's record (the ending run may have died before them).
      const { restEnd } = person;
      if (restEnd !== undefined) await endRest(workflow, person, restEnd);
      else if (workflow.state === 'open') await persons.close(workflow, person.row, DOMAIN_OPEN);
      return person.phase;
    }
    try {
      if (person.phase === 'confirming') {
        // The migrate step run again (a killed worker) leaves the waiting to the checks.
        if (run.data.step === MIGRATE_STEP) return person.phase;
        person = await recheck(run, person);
      }
      while (person !== undefined && DOMAIN_OPEN.has(person.phase) && person.phase !== 'confirming') {
        const from: DomainPhase = person.phase;
        const next: DomainPerson | undefined =
          from === 'scheduled' ? await begin(run, person) : from === 'adding' ? await added(run, person) : from === 'promoting' ? await promoted(run, person) : await removed(run, person);
        person = next ?? (await persons.get(workflow.id, person.row));
        if (person?.phase === from) break;
      }
      return person?.phase ?? 'missing';
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      // A refusal that repeating cannot change ends the user; anything passing (5xx, network, Redis) is retried.
      if (isApiError(error) && !error.retryable && error.category !== 'Authorization') {
        const current = await persons.get(workflow.id, run.data.row);
        if (current !== undefined && DOMAIN_OPEN.has(current.phase)) {
          const gone = error instanceof ResourceNotFoundError;
          await finish(workflow, current, current.phase, { phase: 'failed', step: run.data.step, outcome: 'failed', reason: gone ? `${current.email} is no longer a user of the organization` : error.message, rest: { outcome: 'skipped', message: error.message, extra: { category: error.category } } });
        }
        return 'failed';
      }
      throw error;
    }
  }

  /**
   * The user as the plan read them, while that reading stands (plan-reading-stands.ts): the migrate step has no instant
   * of its own to act for (it is due when the migration is queued, right after its plan), so, as for a batch row, the
   * plan's reading stands within 15 minutes of it; a migration queued later (an approval) reads the user again.
   */
  function standingReading(person: DomainPerson): { primary: string; existing?: { id: number; confirmed: boolean } } | undefined {
    const reading = person.reading;
    if (reading === undefined) return undefined;
    const readAtMs = Date.parse(reading.readAt);
    if (!planReadingStands(readAtMs, readAtMs, engine.clock.now())) return undefined;
    if (reading.newAddress === 'add') return { primary: person.email };
    if (person.alternateEmailId === undefined) return undefined;
    return { primary: person.email, existing: { id: person.alternateEmailId, confirmed: reading.newAddress === 'confirmed' } };
  }

  /** The migrate step: the user as they are now (or as the plan read them, while that stands) decides what is still to do. */
  async function begin(run: StepRun<DomainRecord, DomainPerson>, person: DomainPerson): Promise<DomainPerson | undefined> {
    const { workflow, api, signal } = run;
    let seen = standingReading(person);
    let reading = person.reading;
    if (seen === undefined) {
      const user = await api.users.get(requireUserId(person), signal === undefined ? {} : { signal });
      const alternate = (user.alternateEmails ?? []).find((each) => each.email.toLowerCase() === person.newEmail);
      seen = { primary: user.email.toLowerCase(), ...(alternate === undefined ? {} : { existing: { id: alternate.id, confirmed: alternate.confirmed !== false } }) };
      reading = { readAt: now().toISOString(), newAddress: alternate === undefined ? 'add' : alternate.confirmed === false ? 'unconfirmed' : 'confirmed' };
    }
    const primary = seen.primary;
    if (primary === person.newEmail) {
      const message = `${person.newEmail} is already the primary address`;
      return finish(workflow, person, 'scheduled', { phase: 'migrated', step: MIGRATE_STEP, outcome: 'unchanged', reason: message, rest: { outcome: 'unchanged', message } });
    }
    if (primary !== person.email) {
      const message = `the primary address is ${primary} now, not ${person.email}: it changed since the plan, so nothing is done`;
      return finish(workflow, person, 'scheduled', { phase: 'skipped', step: MIGRATE_STEP, outcome: 'skipped', reason: message, rest: { outcome: 'skipped', message } });
    }
    const existing = seen.existing;
    const read = reading === undefined ? {} : { reading };
    if (existing === undefined) {
      await engine.batches.saveRows(workflow.addBatch, [rowOf(person, 'add')]);
      return move(workflow, person.row, 'scheduled', (current) => ({ ...current, ...read, phase: 'adding', steps: stepped(current, 'add', 'queued') }));
    }
    // The add's outcome first: a step run again after a crash finds it and goes on from there.
    await endPerson(engine, lifecycle, workflow, person, [{ batch: batchOf(workflow, 'add'), end: { outcome: 'unchanged', message: `${person.newEmail} is already an alternate address` } }]);
    const withId = await move(workflow, person.row, 'scheduled', (current) => ({ ...current, ...read, phase: 'adding', alternateEmailId: existing.id, steps: stepped(current, 'add', 'unchanged', `${person.newEmail} is already an alternate address`) }));
    if (withId === undefined) return undefined;
    return confirmedOrWaiting(run, withId, 'adding', existing.confirmed);
  }

  /** The add row ran: refused (the service's reason stands), or the address is the user's and is confirmed or not. */
  async function added(run: StepRun<DomainRecord, DomainPerson>, person: DomainPerson): Promise<DomainPerson | undefined> {
    const { workflow } = run;
    const outcome = await rowOutcomeOf(engine, { batchId: workflow.addBatch, row: person.row, dueAt: run.data.dueAt }, run);
    if (outcome.outcome === 'unknown') return waitOnUnconfirmed(persons, workflow.id, person, unconfirmedNote(`add of ${person.newEmail}`, workflow.addBatch), run);
    if (!DONE_OUTCOMES.has(outcome.outcome)) return refusedBy(workflow, person, 'adding', 'add', outcome);
    const detailId = outcome.detail?.alternateEmailId;
    const answered = outcome.detail?.confirmed;
    // The add's own answer (its row ran, not a confirm after a lost answer) says the address's id and whether the
    // service counts it confirmed: not read again. Since then the id cannot change, and a confirmation can only come
    // (an owner's click): a check step finds it, as it would have a moment after a read here. A removal meanwhile is
    // the make-primary row's 404, reported as for any row.
    const alternate =
      outcome.outcome === 'succeeded' && outcome.confirmed !== true && typeof detailId === 'number' && typeof answered === 'boolean'
        ? { id: detailId, confirmed: answered }
        : await readAlternate(run, { ...person, ...(typeof detailId === 'number' ? { alternateEmailId: detailId } : {}) });
    if (alternate === undefined) throw new Error(`${person.newEmail} is not an alternate address of user ${person.userId ?? '?'} after its add ${outcome.outcome}`);
    const withId = await persons.update(workflow.id, person.row, (current) => (current.phase === 'adding' ? { ...current, alternateEmailId: alternate.id } : undefined));
    if (withId === undefined) return undefined;
    return confirmedOrWaiting(run, withId, 'adding', alternate.confirmed !== false);
  }

  /** Promote now, or wait for the owner (the checks take over), or, when the new domain was said to be validated, stop. */
  async function confirmedOrWaiting(run: StepRun<DomainRecord, DomainPerson>, person: DomainPerson, from: DomainPhase, confirmed: boolean): Promise<DomainPerson | undefined> {
    const { workflow } = run;
    if (confirmed) {
      await engine.batches.saveRows(workflow.primaryBatch, [rowOf(person, 'primary')]);
      return move(workflow, person.row, from, (current) => ({ ...current, phase: 'promoting', steps: stepped(current, 'primary', 'queued') }));
    }
    if (!person.checked) {
      // No checks were scheduled: the plan expected the service to count the address confirmed. Say so now.
      const why = workflow.expectConfirmed ? `although ${workflow.to} was named a validated domain: check Admin Center → Domain management` : 'although it was confirmed when planned';
      const reason = `the service says ${person.newEmail} is not confirmed, ${why} (it refuses make-primary until then: 1158)`;
      return finish(workflow, person, from, { phase: 'unconfirmed', step: 'confirm', outcome: 'skipped', reason, errorCode: 1158, rest: { outcome: 'skipped', message: reason } });
    }
    return move(workflow, person.row, from, (current) => ({ ...current, phase: 'confirming', steps: stepped(current, 'confirm', 'waiting', `until its owner confirms ${person.newEmail} (at the latest ${new Date(workflow.confirmBy).toISOString()})`) }));
  }

  /** A check step: confirmed now → promote; not yet → wait for the next check, or end at the last one. */
  async function recheck(run: StepRun<DomainRecord, DomainPerson>, person: DomainPerson): Promise<DomainPerson | undefined> {
    const { workflow } = run;
    const alternate = await readAlternate(run, person);
    if (alternate === undefined) {
      const reason = `${person.newEmail} is no longer an alternate address of the user (removed meanwhile)`;
      return finish(workflow, person, 'confirming', { phase: 'failed', step: run.data.step, outcome: 'failed', reason, rest: { outcome: 'skipped', message: reason } });
    }
    if (alternate.confirmed !== false) return confirmedOrWaiting(run, person, 'confirming', true);
    if (run.data.step !== workflow.lastCheck) return person;
    const reason = `its owner did not confirm ${person.newEmail} by ${new Date(workflow.confirmBy).toISOString()}: the service refuses to make it primary until they do (1158)`;
    return finish(workflow, person, 'confirming', { phase: 'unconfirmed', step: run.data.step, outcome: 'skipped', reason, errorCode: 1158, rest: { outcome: 'skipped', message: reason } });
  }

  /** The make-primary row ran: migrated (then the old address goes, with --remove-old), or the service's reason stands. */
  async function promoted(run: StepRun<DomainRecord, DomainPerson>, person: DomainPerson): Promise<DomainPerson | undefined> {
    const { workflow } = run;
    const outcome = await rowOutcomeOf(engine, { batchId: workflow.primaryBatch, row: person.row, dueAt: run.data.dueAt }, run);
    if (outcome.outcome === 'unknown') return waitOnUnconfirmed(persons, workflow.id, person, unconfirmedNote(`make-primary of ${person.newEmail}`, workflow.primaryBatch), run);
    if (!DONE_OUTCOMES.has(outcome.outcome)) return refusedBy(workflow, person, 'promoting', 'primary', outcome);
    if (workflow.removeBatch === undefined) {
      return finish(workflow, person, 'promoting', { phase: 'migrated', step: 'primary', outcome: outcome.outcome, rest: { outcome: 'skipped', message: 'nothing else to do' } });
    }
    await engine.batches.saveRows(workflow.removeBatch, [rowOf(person, 'remove')]);
    return move(workflow, person.row, 'promoting', (current) => ({ ...current, phase: 'removing', steps: stepped(current, 'primary', outcome.outcome) }));
  }

  /** The delete row of the old address ran: the user is on the new address either way; a failure is a note. */
  async function removed(run: StepRun<DomainRecord, DomainPerson>, person: DomainPerson): Promise<DomainPerson | undefined> {
    const batchId = run.workflow.removeBatch;
    if (batchId === undefined) throw new Error(`domain migration ${run.workflow.id} has no remove step batch`);
    const outcome = await rowOutcomeOf(engine, { batchId, row: person.row, dueAt: run.data.dueAt }, run);
    // The user is on the new address either way: an unconfirmed deletion is a note, not a wait.
    const kept =
      DONE_OUTCOMES.has(outcome.outcome) ? []
      : outcome.outcome === 'unknown' ? [unconfirmedNote(`deletion of the old address ${person.email}`, batchId)]
      : [`the old address ${person.email} was not deleted (${outcome.outcome}: ${outcome.message ?? ''})`];
    return finish(run.workflow, person, 'removing', { phase: 'migrated', step: 'remove', outcome: outcome.outcome, notes: kept, rest: { outcome: 'skipped', message: 'nothing else to do' } });
  }

  /** A row that did not apply ends the user: `refused` when the service refused it (its code kept), else `failed`. */
  function refusedBy(workflow: DomainRecord, person: DomainPerson, from: DomainPhase, step: BatchName, outcome: RowOutcome): Promise<DomainPerson | undefined> {
    const refused = outcome.category === 'InvalidRequest';
    const reason = `${step === 'add' ? 'adding' : 'promoting'} ${person.newEmail} ${outcome.outcome}: ${outcome.message ?? ''}`.trim();
    return finish(workflow, person, from, {
      phase: refused ? 'refused' : 'failed',
      step,
      outcome: outcome.outcome,
      reason,
      ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
      rest: { outcome: 'skipped', message: `not done: ${reason}` },
    });
  }

  async function readAlternate(run: StepRun<DomainRecord, DomainPerson>, person: DomainPerson) {
    const options = run.signal === undefined ? {} : { signal: run.signal };
    const userId = requireUserId(person);
    if (person.alternateEmailId !== undefined) {
      try {
        return await run.api.alternateEmails.get(userId, person.alternateEmailId, options);
      } catch (error) {
        if (!(error instanceof ResourceNotFoundError)) throw error;
      }
    }
    return (await run.api.alternateEmails.listPage(userId, { ...options, includeAll: true })).data.find((alternate) => alternate.email.toLowerCase() === person.newEmail);
  }

  async function gaveUp(data: StepJobData, reason: string): Promise<void> {
    const workflow = await records.get(data.workflowId);
    const person = await persons.get(data.workflowId, data.row);
    if (workflow === undefined || person === undefined || !DOMAIN_OPEN.has(person.phase)) return;
    await finish(workflow, person, person.phase, { phase: 'failed', step: data.step, outcome: 'failed', reason, rest: { outcome: 'failed', message: reason } });
  }

  return lifecycle;
}

function batchOf(workflow: DomainRecord, name: BatchName): StepBatchRef {
  const found = domainBatches(workflow).find((batch) => batch.name === name);
  if (found === undefined) throw new Error(`domain migration ${workflow.id} has no ${name} step batch`);
  return found;
}

function requireUserId(person: DomainPerson): number {
  if (person.userId === undefined) throw new Error(`user row ${person.row} (${person.email}) of a domain migration has no user id`);
  return person.userId;
}

/** The row a step batch runs for this user, as the existing job types take it. */
export function rowOf(person: DomainPerson, name: BatchName): PlannedRow {
  const userId = requireUserId(person);
  const action: Action =
    name === 'add'
      ? { action: 'add-alternate-email', user: { userId, email: person.email }, alternateEmail: person.newEmail }
      : name === 'primary'
        ? { action: 'make-alternate-email-primary', user: { userId, email: person.email }, alternateEmail: person.newEmail }
        : { action: 'delete-alternate-email', user: { userId, email: person.newEmail }, alternateEmail: person.email };
  const email = name === 'remove' ? person.newEmail : person.email;
  // Make-primary: the primary address as the latest reading of the user saw it (the plan's or the migrate step's) is
  // the row's state before for revert while that reading stands (target.readAtPlan); a row run later reads it.
  // The remove row names the old address by e-mail: its id as an alternate, once the new one is primary, is not in the
  // make-primary answer (which names the promoted address), so the job lists the user's addresses to find it.
  const primaryBefore = name === 'primary' && person.reading !== undefined ? { readAtPlan: { readAt: person.reading.readAt, state: primaryStateBefore(person.email) } } : {};
  return {
    row: person.row,
    line: person.line,
    action,
    actionName: action.action,
    verdict: 'change',
    target: { userId, email, ...(name === 'primary' && person.alternateEmailId !== undefined ? { alternateEmailId: person.alternateEmailId } : {}), ...primaryBefore },
  };
}
