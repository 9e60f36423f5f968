import { describe, expect, it } from 'vitest';
import { createJobRegistry } from '../../jobs/registry.js';
import { ALTERNATE_EMAIL_LIMIT } from '../../src/contract/index.js';
import { planRevert, revertBatchOptions } from '../../src/governance/revert/plan-revert.js';
import { domainMigrationRequestSchema, newAddressOf, type DomainMigrationInput } from '../../src/migrate/domain-migration-request.js';
import { domainMigrationsOf } from '../../src/migrate/domain-migrations.js';
import { MIGRATION_LIFECYCLES } from '../../src/migrate/migration-lifecycles.js';
import { domainBatches } from '../../src/migrate/domain-lifecycle.js';
import { DOMAIN_MIGRATION, domainPersonSchema, domainRecordSchema } from '../../src/migrate/domain-workflow-state.js';
import { planDomainMigration } from '../../src/migrate/plan-domain-migration.js';
import { createPersonStore } from '../../src/workflow/person-store.js';
import { createRecordStore } from '../../src/workflow/record-store.js';
import { submitDomainMigration } from '../../src/migrate/submit-domain-migration.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { hrWorkflowsOf } from '../../src/sync/hr-workflows.js';
import type { UserRecord } from '../../src/server/state/records.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { createOffboardingHarness, DAY, TEST_OFFBOARDING, type OffboardingHarness } from '../helpers/offboarding-harness.js';

const GUARDRAILS = { destructiveMaxCount: 1e6, destructiveMaxShare: 1, protectedAccounts: [] };
const batches = useBatchHarnesses();

async function open(): Promise<{ h: BatchHarness; o: OffboardingHarness }> {
  const h = await batches.open({ rateLimit: 'off' });
  const o = createOffboardingHarness(h, TEST_OFFBOARDING, MIGRATION_LIFECYCLES);
  return { h, o };
}

const usersOn = (h: BatchHarness, domain: string): UserRecord[] => [...h.server.context.state.users.values()].filter((user) => user.inOrg && user.email.endsWith(`@${domain}`));
const plan = (h: BatchHarness, input: DomainMigrationInput) => planDomainMigration({ api: h.api, request: domainMigrationRequestSchema.parse(input), guardrails: GUARDRAILS });

const ADDRESS_CALLS = new Set(['addAlternateEmail', 'makeAlternateEmailPrimary', 'deleteAlternateEmail', 'updateUser']);

/** The address changes of the mutation log per user: seatflow's calls (not the owners' clicks, nor the server's clock). */
async function callsPerUser(h: BatchHarness): Promise<Map<number, string[]>> {
  const calls = new Map<number, string[]>();
  for (const m of await h.mutations()) {
    if (m.userId === undefined || !ADDRESS_CALLS.has(m.operation)) continue;
    calls.set(m.userId, [...(calls.get(m.userId) ?? []), m.operation]);
  }
  return calls;
}

/** Runs the steps due by now until every due step of the migration has ended. */
async function settle(o: OffboardingHarness, workflowId: string): Promise<void> {
  await o.system.promoteDue(o.clock.now());
  await o.waitFor(async () => (await o.system.engine.nothingDue(workflowId)) && (await o.system.settled(workflowId)), 120_000);
}

// A hang detector: the first test took 100-130 s on 2 cores, and past 240 s beside three soaks (load 15). Most of it is
// the due sweep (promoteDue), which reads each of some 300 due steps one after the other, three sweeps over.
describe('seatflow migrate domain, against the reference server', { timeout: 480_000 }, () => {
  it('moves exactly the migratable users of 300 to the new primary address, each call once, lists the rest with the service\'s reason, and reverts', async () => {
    const { h, o } = await open();
    const state = h.server.context.state;
    const generated = usersOn(h, 'acme.example').filter((user) => /\.\d{3}@/.test(user.email)).sort((a, b) => a.email.localeCompare(b.email));
    expect(generated.length).toBeGreaterThanOrEqual(300);
    const at = (i: number) => generated[i]!;
    // Clashes the plan foresees: the new address is another user's primary (1157), another migrating user's alternate
    // (1159); a user at the alternate limit (1330).
    const primaryClash = at(3);
    h.server.context.state.users.get(at(4).id)!.alternateEmails.push({ id: state.ids.next(), email: newAddressOf(at(5).email, 'acme.io'), confirmed: true });
    const alternateClash = at(5);
    const atLimit = at(6);
    atLimit.alternateEmails = Array.from({ length: ALTERNATE_EMAIL_LIMIT }, (_, i) => ({ id: state.ids.next(), email: `old.${i}.${atLimit.email}`, confirmed: true }));
    expect((await h.api.users.add({ email: newAddressOf(primaryClash.email, 'acme.io'), firstName: 'Namesake' })).email).toBe(newAddressOf(primaryClash.email, 'acme.io'));
    // Found only when its add runs: the new address is the alternate of a user outside the migration (1159).
    const outsider = usersOn(h, 'partner.example')[0]!;
    const lateClash = at(7);
    outsider.alternateEmails.push({ id: state.ids.next(), email: newAddressOf(lateClash.email, 'acme.io'), confirmed: true });
    // On a domain the plan does not validate: a user whose only plan is Acme Labs (labs.acme.example): 1186 at make-primary.
    const unvalidated = at(8);
    unvalidated.seats = unvalidated.seats.filter((seat) => seat.planId === DEMO.labsPlanId).concat(unvalidated.seats.some((seat) => seat.planId === DEMO.labsPlanId) ? [] : [{ ...unvalidated.seats[0]!, planId: DEMO.labsPlanId }]);
    // Already an alternate, confirmed: nothing to add, promoted at once.
    const preAdded = at(9);
    preAdded.alternateEmails.push({ id: state.ids.next(), email: newAddressOf(preAdded.email, 'acme.io'), confirmed: true });
    // Owners who never confirm.
    const silent = new Set([20, 40, 60, 80, 100, 120, 140, 160, 180, 200].map((i) => at(i).id));

    const setUp = (await h.mutations()).length;
    const planned = await plan(h, { from: 'acme.example', to: 'acme.io' });
    const verdictOf = (user: UserRecord) => planned.moves.find((move) => move.userId === user.id);
    expect(verdictOf(primaryClash)).toMatchObject({ verdict: 'conflict', errorCode: 1157 });
    expect(verdictOf(alternateClash)).toMatchObject({ verdict: 'conflict', errorCode: 1159 });
    expect(verdictOf(atLimit)).toMatchObject({ verdict: 'refused', errorCode: 1330 });
    expect(verdictOf(preAdded)).toMatchObject({ verdict: 'change', newAddress: 'confirmed', waits: false });
    expect(verdictOf(at(0))).toMatchObject({ verdict: 'change', newAddress: 'add', waits: true });
    expect(planned.summary.refused).toBe(3);
    // Nothing ran: the plan read and changed nothing.
    expect(await h.mutations()).toHaveLength(setUp);

    o.startWorkers();
    const submitted = await submitDomainMigration(o.system.engine.context, planned, h.server.url);
    expect(submitted.created).toBe(true);
    expect((await submitDomainMigration(o.system.engine.context, planned, h.server.url)).created).toBe(false);
    await settle(o, submitted.workflowId);
    const migrations = domainMigrationsOf(o.system.engine);
    const phaseOf = async (user: UserRecord) => (await migrations.status(submitted.workflowId))!.persons.find((person) => person.userId === user.id);
    expect(await phaseOf(preAdded)).toMatchObject({ phase: 'migrated' });
    expect(await phaseOf(lateClash)).toMatchObject({ phase: 'refused', reason: expect.stringMatching(/alternate address of another user/) });
    expect(await phaseOf(at(0))).toMatchObject({ phase: 'confirming' });
    // Its checks are steps to come of the engine, listed by `seatflow steps`, but nobody joins, moves or leaves.
    expect((await o.system.engine.steps({ workflowId: submitted.workflowId })).some((step) => step.step === 'check-1')).toBe(true);
    expect(await hrWorkflowsOf(o.system).upcoming()).toEqual([]);

    // The owners click their links (all but the silent ones), the first check finds them confirmed.
    for (const move of planned.moves) {
      if (move.verdict !== 'change' || silent.has(move.userId!) || move.newAddress !== 'add' || move.userId === lateClash.id) continue;
      await h.api.users.get(move.userId!); // the user is still there
      const confirm = await fetch(`${h.server.url}/_sim/alternateemails/confirm`, { method: 'POST', headers: { authorization: `Bearer ${h.server.tokens.admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: move.newEmail }) });
      expect(confirm.status).toBe(200);
    }
    h.server.context.clock.advance(2 * 3_600_000);
    await settle(o, submitted.workflowId);
    expect(await phaseOf(unvalidated)).toMatchObject({ phase: 'refused', reason: expect.stringMatching(/not validated/) });
    // The last check, at the deadline, gives up on the silent owners.
    h.server.context.clock.advance(15 * DAY);
    await settle(o, submitted.workflowId);
    const status = (await migrations.status(submitted.workflowId))!;
    expect(status.workflow.state).toBe('finished');

    const migrated = status.persons.filter((person) => person.phase === 'migrated').map((person) => person.userId);
    const expected = planned.moves.filter((move) => move.verdict === 'change' && !silent.has(move.userId!) && move.userId !== lateClash.id && move.userId !== unvalidated.id).map((move) => move.userId);
    expect(new Set(migrated)).toEqual(new Set(expected));
    // Exactly the migratable users are on the new primary address.
    const onNew = new Set([...state.users.values()].filter((user) => user.email.endsWith('@acme.io') && user.email !== newAddressOf(primaryClash.email, 'acme.io')).map((user) => user.id));
    expect(onNew).toEqual(new Set(expected));
    // Each call once: one add and one make-primary per migrated user (the pre-added one: make-primary only).
    const calls = await callsPerUser(h);
    for (const userId of expected) expect(calls.get(userId!), `user ${userId}`).toEqual(userId === preAdded.id ? ['makeAlternateEmailPrimary'] : ['addAlternateEmail', 'makeAlternateEmailPrimary']);
    // The rest, each with the service's reason and code.
    for (const person of status.persons.filter((each) => each.phase !== 'migrated')) {
      expect(person.reason, person.email).toBeDefined();
      expect(['refused', 'unconfirmed']).toContain(person.phase);
    }
    for (const userId of silent) expect((await phaseOf(state.users.get(userId)!))?.detail.errorCode).toBe('1158');
    expect((await phaseOf(unvalidated))?.detail.errorCode).toBe('1186');
    expect((await phaseOf(lateClash))?.detail.errorCode).toBe('1159');

    // Re-running changes nothing: the plan finds the migrated users gone from the old domain and queues no change.
    const before = (await h.mutations()).length;
    const again = await plan(h, { from: 'acme.example', to: 'acme.io' });
    const rerun = await submitDomainMigration(o.system.engine.context, again, h.server.url);
    await settle(o, rerun.workflowId);
    expect((await h.mutations()).length).toBe(before);

    // The revert puts every primary back (the new domain validated first: make-primary needs the current one validated).
    await fetch(`${h.server.url}/_sim/plans/${DEMO.planId}/domains`, { method: 'POST', headers: { authorization: `Bearer ${h.server.tokens.admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'acme.io' }) });
    const revert = await planRevert({ batchId: `${submitted.workflowId}-primary`, store: h.system.store, registry: createJobRegistry(), api: h.api, guardrails: { ...GUARDRAILS, protectedAccounts: [] }, reactivationWindowDays: 30 });
    expect(revert.plan.summary.change).toBe(expected.length);
    const queued = await h.system.submit(revert.plan, { options: revertBatchOptions(`${submitted.workflowId}-primary`) });
    await h.waitForState(queued.batch.id, ['finished'], 120_000);
    for (const userId of expected) expect(state.users.get(userId!)?.email.endsWith('@acme.example'), `user ${userId}`).toBe(true);
  });

  it('stands on the plan\'s reading of each user while it stands: add and make-primary only, no read again; revert restores from it; a stale plan reads again', async () => {
    const { h, o } = await open();
    const state = h.server.context.state;
    // The new domain validated for the plan: every new address counts as confirmed at once.
    state.plans.get(DEMO.planId)!.domains.push('acme.io');
    const members = usersOn(h, 'acme.example').filter((user) => /\.\d{3}@/.test(user.email) && user.seats.length > 0 && user.seats.every((seat) => seat.planId === DEMO.planId)).sort((a, b) => a.email.localeCompare(b.email));
    expect(members.length).toBeGreaterThanOrEqual(30);
    const request = (users: UserRecord[]) => domainMigrationRequestSchema.parse({ from: 'acme.example', to: 'acme.io', users: users.map((user) => user.email), usersFile: 'users.txt', oldAddress: 'keep', validatedDomains: ['acme.example', 'acme.io'] });
    const planAt = (users: UserRecord[]) => planDomainMigration({ api: h.api, request: request(users), guardrails: GUARDRAILS, nowMs: h.server.context.clock.now() });
    const since = () => h.server.requests.list().at(-1)?.seq ?? 0;
    const count = (after: number, operation: string) => h.server.requests.list({ afterSeq: after, operation }).length;
    o.startWorkers();

    const fresh = members.slice(0, 20);
    const planned = await planAt(fresh);
    expect(planned.summary.migrate).toBe(fresh.length);
    const start = since();
    const submitted = await submitDomainMigration(o.system.engine.context, planned, h.server.url);
    await settle(o, submitted.workflowId);
    const status = (await domainMigrationsOf(o.system.engine).status(submitted.workflowId))!;
    expect(status.persons.map((person) => person.phase)).toEqual(fresh.map(() => 'migrated'));
    // Each user: the add and the make-primary, nothing read again (the plan's reading, the add's answer).
    expect(count(start, 'addAlternateEmail')).toBe(fresh.length);
    expect(count(start, 'makeAlternateEmailPrimary')).toBe(fresh.length);
    for (const operation of ['getUser', 'getAlternateEmail', 'listAlternateEmails', 'listUsers']) expect(count(start, operation), operation).toBe(0);
    for (const user of fresh) expect(state.users.get(user.id)?.email.endsWith('@acme.io'), user.email).toBe(true);

    // The revert puts every primary back, from the primary address the plan read (kept as each row's state before).
    const revert = await planRevert({ batchId: `${submitted.workflowId}-primary`, store: h.system.store, registry: createJobRegistry(), api: h.api, guardrails: { ...GUARDRAILS, protectedAccounts: [] }, reactivationWindowDays: 30 });
    expect(revert.plan.summary.change).toBe(fresh.length);
    const queued = await h.system.submit(revert.plan, { options: revertBatchOptions(`${submitted.workflowId}-primary`) });
    await h.waitForState(queued.batch.id, ['finished'], 60_000);
    for (const user of fresh) expect(state.users.get(user.id)?.email, `user ${user.id}`).toBe(user.email);

    // Queued 16 minutes after its plan (an approval, say): the migrate step reads each user again, once.
    const late = members.slice(20, 25);
    const stale = await planAt(late);
    h.server.context.clock.advance(16 * 60_000);
    const later = since();
    const lateRun = await submitDomainMigration(o.system.engine.context, stale, h.server.url);
    await settle(o, lateRun.workflowId);
    expect((await domainMigrationsOf(o.system.engine).status(lateRun.workflowId))!.persons.map((person) => person.phase)).toEqual(late.map(() => 'migrated'));
    expect(count(later, 'getUser')).toBe(late.length);
    const lateRevert = await planRevert({ batchId: `${lateRun.workflowId}-primary`, store: h.system.store, registry: createJobRegistry(), api: h.api, guardrails: { ...GUARDRAILS, protectedAccounts: [] }, reactivationWindowDays: 30 });
    const lateQueued = await h.system.submit(lateRevert.plan, { options: revertBatchOptions(`${lateRun.workflowId}-primary`) });
    await h.waitForState(lateQueued.batch.id, ['finished'], 60_000);
    for (const user of late) expect(state.users.get(user.id)?.email, `user ${user.id}`).toBe(user.email);
  });

  it('ends the step batches from a later run of a step when the run that ended a user died before ending them', async () => {
    // As a joiner's did in the whole-system simulation (seed 6602): the phase written, the worker killed before the ends.
    const { h, o } = await open();
    const [user] = usersOn(h, 'acme.example').filter((each) => /\.\d{3}@/.test(each.email)).sort((a, b) => a.email.localeCompare(b.email));
    const request = domainMigrationRequestSchema.parse({ from: 'acme.example', to: 'acme.io', users: [user!.email], usersFile: 'users.txt', oldAddress: 'keep', validatedDomains: ['acme.example', 'acme.io'] });
    const planned = await planDomainMigration({ api: h.api, request, guardrails: GUARDRAILS, nowMs: h.server.context.clock.now() });
    const submitted = await submitDomainMigration(o.system.engine.context, planned, h.server.url);
    const { context } = o.system.engine;
    const persons = createPersonStore(context.redis, context.keys, domainPersonSchema);
    const workflow = (await createRecordStore(context.redis, context.keys, domainRecordSchema, DOMAIN_MIGRATION).get(submitted.workflowId))!;
    const [person] = await persons.all(submitted.workflowId);
    const message = 'no longer a user of the organization';
    await persons.update(submitted.workflowId, person!.row, (current) => ({ ...current, phase: 'skipped', reason: message, restEnd: { outcome: 'skipped', message }, steps: [...current.steps, { step: 'migrate', outcome: 'skipped', at: new Date().toISOString(), message }] }));
    o.startWorkers();
    await settle(o, submitted.workflowId);
    for (const { batchId } of domainBatches(workflow)) {
      expect(await context.batches.getOutcome(batchId, person!.row), batchId).toMatchObject({ outcome: 'skipped', message });
      expect((await context.batches.get(batchId))?.state, batchId).toBe('finished');
    }
    expect((await callsPerUser(h)).get(user!.id)).toBeUndefined();
  });
});
