import { NoReplicaError } from '../queue/redis/replicated-write.js';
import { sayIfUnconfirmed } from './say-if-unconfirmed.js';
import { printed } from '../core/printable.js';
import { fingerprintOfBatchPlan } from '../governance/approvals/plan-fingerprint.js';
import { domainMigrationsOf } from '../migrate/domain-migrations.js';
import { formatMigration } from '../migrate/format-migration.js';
import type { MigrationInput } from '../migrate/migration-input.js';
import { migrationPlanningOf } from './migration-planning.js';
import { migrationJson } from '../migrate/migration-json.js';
import { migrationIdOf, queueMigration, type QueuedMigration } from '../migrate/plan-migration.js';
import { formatWorkflowStatus } from '../workflow/person-status.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import { createBudgetedApi, openBatchRuntime, type BatchRuntime } from './batch-runtime.js';
import { cliActorOf } from './cli-actor.js';
import { withCliRuntime, type CliRuntime } from './cli-runtime.js';
import type { CommonFlags } from './common-options.js';
import { awaitingApprovalText, throughGate } from './governance-runtime.js';
import { confirmOnTerminal } from './manifest-options.js';
import { openOffboarding, workUntil } from './offboarding-runtime.js';
import { EXIT_AWAITING_APPROVAL, type RequestFlags } from './request-options.js';
import { runBatchToEnd } from './run-batch-to-end.js';

/** What every `seatflow migrate …` command takes besides its own options. */
export interface MigrateFlags extends CommonFlags, RequestFlags {
  apply?: boolean;
  yes?: boolean;
  json?: boolean;
  wait?: boolean;
}

/**
 * `seatflow migrate domain|columns|webhooks`: the plan from live state (changes nothing); with --apply, through the
 * guardrails and the approvals gate, then queued: a domain migration as a workflow of its lifecycle (what is due now
 * runs here unless --no-wait; the checks to come wait for `seatflow worker`), columns and webhooks as one batch run to
 * the end here. Exit 0 done or planned, 1 something failed, 2 refused, 4 waiting for approval.
 */
export async function runMigrateCommand(flags: MigrateFlags, inputOf: () => Promise<MigrationInput>): Promise<number> {
  const out = process.stdout;
  // A request it cannot read is refused before anything starts (no Redis, no reference server).
  const input = await inputOf();
  return withCliRuntime(flags, {}, async (runtime) => {
    const batch = await openBatchRuntime(runtime);
    const offboarding = openOffboarding(runtime, batch);
    const planning = migrationPlanningOf(runtime, batch, offboarding);
    const planned = await planning.plan(input);
    if (flags.json === true) out.write(`${JSON.stringify(migrationJson(planned, runtime.targetLabel), null, 2)}\n`);
    else out.write(`Target: ${runtime.targetLabel}\n${formatMigration(planned, { width: process.stdout.isTTY === true ? process.stdout.columns : undefined, rate: runtime.config.rateLimit })}`);
    // With --json, stdout is the plan's JSON document alone: what is said besides goes to stderr.
    const say = flags.json === true ? process.stderr : out;
    if (flags.apply !== true) {
      say.write('Dry run: nothing was changed. Add --apply to queue this migration.\n');
      return 0;
    }
    if (planned.plan.summary.change === 0) {
      say.write('Nothing to change: nothing was queued.\n');
      return 0;
    }
    await confirmOnTerminal(planned.guardrails, flags, flags.json === true);
    const id = migrationIdOf(planned, batch.target);
    const gated = await sayIfUnconfirmed(
      () => throughGate<QueuedMigration>(
        batch,
        {
          kind: 'migration',
          id,
          subject: planned.plan.source.path,
          target: batch.target,
          sim: runtime.sim !== undefined,
          plan: fingerprintOfBatchPlan(planned.plan),
          guardrails: planned.guardrails.reasons,
          input,
          requestedBy: cliActorOf(runtime, flags.by),
          reason: flags.reason,
        },
        async () => {
          const queued = await queueMigration(planned, planning.queues);
          return { value: queued, queued: { id: queued.id, created: queued.created } };
        },
      ),
      // A migration no Redis replica took is refused (exit 3) but may still be kept and run: the refusal names it, so
      // the operator can watch it, and the plan above is what it would do.
      NoReplicaError,
      () => void say.write(`Migration ${id} was not acknowledged: it may still be kept and run as planned above (watch: seatflow status ${id}).\n`),
    );
    if (gated.status === 'awaiting-approval') {
      say.write(awaitingApprovalText(gated.request, gated.created, runtime.sim !== undefined));
      return EXIT_AWAITING_APPROVAL;
    }
    const queued = gated.value;
    if (queued.batch !== undefined) {
      if (flags.wait === false) {
        say.write(`Batch ${queued.id} ${queued.created ? 'queued' : 'was queued before: nothing queued again'}. A running seatflow worker takes it (watch: seatflow status ${queued.id}).\n`);
        return 0;
      }
      return runBatchToEnd(runtime, batch, queued.batch);
    }
    return domainMigrationToNow(runtime, batch, offboarding, queued, flags);
  });
}

/** A queued domain migration: runs what is due now here (unless --no-wait), then where each user stands. */
async function domainMigrationToNow(runtime: CliRuntime, batch: BatchRuntime, offboarding: OffboardingSystem, queued: QueuedMigration, flags: MigrateFlags): Promise<number> {
  const out = process.stdout;
  out.write(`Domain migration ${queued.id} ${queued.created ? 'queued' : 'was queued before (the same plan): nothing queued again'}.\n`);
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  process.once('SIGINT', onSignal);
  try {
    if (flags.wait !== false) {
      const { api, budget } = createBudgetedApi(runtime, batch);
      await workUntil(runtime, batch, offboarding, { api, budget, done: () => offboarding.settled(queued.id), signal: interrupt.signal });
    }
  } finally {
    process.off('SIGINT', onSignal);
  }
  const status = await domainMigrationsOf(offboarding.engine).status(queued.id);
  if (status === undefined) throw new Error(`domain migration ${queued.id} disappeared from Redis`);
  out.write(`\n${formatWorkflowStatus(status)}`);
  const waiting = status.persons.filter((person) => person.next !== undefined).length;
  if (waiting > 0) {
    out.write(
      runtime.sim
        ? 'SIMULATION: the embedded reference server ends with this process, so the checks still to come will not run.\n'
        : printed`${waiting} users wait for a step to come (their owners' confirmations are checked until the deadline): keep  seatflow worker  running (watch: seatflow status ${queued.id}; check now: seatflow steps run ${queued.id}).\n`,
    );
  }
  if (interrupt.signal.aborted) return 130;
  return status.persons.some((person) => person.phase === 'failed') ? 1 : 0;
}

