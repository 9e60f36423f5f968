import type { FastifyInstance } from 'fastify';
import { fingerprintOfBatchPlan } from '../../../governance/approvals/plan-fingerprint.js';
import type { Actor } from '../../../governance/operators/actor.js';
import { migrationInputSchema, type MigrationInput } from '../../../migrate/migration-input.js';
import { migrationIdOf, queueMigration } from '../../../migrate/plan-migration.js';
import { ControlError, CONTROL_ERROR_CODES } from '../../control-error.js';
import type { ControlMigrationDeps } from '../../migration-deps.js';
import { csrfTokenOf } from '../../security/register-security.js';
import { toControlError } from '../../to-control-error.js';
import { withRedis } from '../../with-redis.js';
import type { DashboardContext } from '../dashboard-context.js';
import { createPreviews } from '../plan-previews.js';
import { domainMigrationPage, migrationForms, migrationPlanPage } from '../pages/migration-pages.js';
import { fieldValue } from '../upload-fields.js';

const lines = (text: string | undefined): string[] => (text ?? '').split(/[\r\n,]+/).map((line) => line.trim()).filter((line) => line !== '');

/** A migration's input from one of the three forms (the same object `seatflow migrate` plans). */
function inputOf(body: Record<string, unknown>): MigrationInput {
  const field = (name: string) => fieldValue(body[name])?.trim();
  const migration = field('migration');
  if (migration === 'domain') {
    const users = lines(field('users'));
    const validated = lines(field('validatedDomains'));
    return migrationInputSchema.parse({
      migration,
      request: {
        from: field('from'),
        to: field('to'),
        oldAddress: field('removeOld') === 'true' ? 'remove' : 'keep',
        ...(users.length === 0 ? {} : { users, usersFile: 'the dashboard form' }),
        ...(validated.length === 0 ? {} : { validatedDomains: validated }),
        confirmWithinDays: Number(field('confirmWithinDays') ?? 14),
      },
    });
  }
  if (migration === 'columns') {
    return migrationInputSchema.parse({
      migration,
      sheetsFile: 'sheets (dashboard form)',
      sheetsBase64: Buffer.from(lines(field('sheets')).join('\n'), 'utf8').toString('base64'),
      specFile: 'standard (dashboard form)',
      specBase64: Buffer.from(field('spec') ?? '', 'utf8').toString('base64'),
    });
  }
  const mode = field('mode');
  const request = mode === 'repoint' ? { mode, from: field('repointFrom'), to: field('repointTo') } : mode === 'rotate-secrets' ? { mode, secretsTo: field('secretsTo') } : { mode, days: Number(field('days')) };
  return migrationInputSchema.parse({ migration: 'webhooks', request });
}

/**
 * The migration pages: a form per migration, its plan (planned from live state, changing nothing), then, confirmed,
 * queued through the approvals gate as `seatflow migrate … --apply` queues it; a domain migration's users' page.
 */
export function registerMigrationPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, csrf, render } = context;
  const migrations = deps.migrations;
  if (migrations === undefined) return;
  const previews = createPreviews<MigrationInput>((input) => JSON.stringify(input).length);
  const formPage = { title: 'Migrations', section: 'migrations' };

  app.get('/migrations', session, async (_request, reply) => render(reply, migrationForms(csrfTokenOf(reply)), formPage));

  app.post('/migrations/plan', csrf, async (request, reply) => {
    let input: MigrationInput;
    try {
      input = inputOf((request.body ?? {}) as Record<string, unknown>);
    } catch (error) {
      const issue = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
      const message = issue === undefined ? (error as Error).message : `${issue.path.map(String).join('.')}: ${issue.message}`;
      return render(reply, migrationForms(csrfTokenOf(reply), message), formPage, 400);
    }
    try {
      const planned = await migrations.plan(input);
      const previewId = previews.add(input);
      return render(reply, migrationPlanPage({ planned, previewId, rate: deps.rate, csrfToken: csrfTokenOf(reply) }), { title: planned.plan.source.path, section: 'migrations' });
    } catch (error) {
      const answer = toControlError(error, false);
      return render(reply, migrationForms(csrfTokenOf(reply), answer.message), formPage, answer.statusCode);
    }
  });

  app.post('/migrations/:previewId/queue', csrf, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const input = previews.get((request.params as { previewId: string }).previewId);
    if (input === undefined) return render(reply, migrationForms(csrfTokenOf(reply), 'That plan has expired. Plan the migration again.'), formPage, 410);
    if (fieldValue(body.confirm) !== 'true') return render(reply, migrationForms(csrfTokenOf(reply), 'Tick the confirmation box to queue the migration.'), formPage, 400);
    const reason = fieldValue(body.reason)?.trim();
    const queued = await queueThroughGate(context, migrations, input, request.actor, reason === '' ? undefined : reason);
    if (queued.awaitingApproval) return reply.redirect(`/approvals/${queued.id}`, 303);
    return reply.redirect(queued.id.startsWith('d') ? `/migrations/${queued.id}` : `/batches/${queued.id}`, 303);
  });

  app.get('/migrations/:id', session, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    const status = /^d[0-9a-f]{12}$/.test(id) ? await withRedis(deps, () => migrations.status(id)) : undefined;
    if (status === undefined) throw new ControlError(404, CONTROL_ERROR_CODES.notFound, `no domain migration ${id}`, { hint: 'Domain migrations have ids that start with "d".' });
    return render(reply, domainMigrationPage(status), { title: `Domain migration ${id}`, section: 'migrations' });
  });
}

/** Re-plans the input (live state now) and queues that plan through the gate, as the CLI does. */
async function queueThroughGate(context: DashboardContext, migrations: ControlMigrationDeps, input: MigrationInput, actor: Actor | undefined, reason: string | undefined): Promise<{ id: string; awaitingApproval: boolean }> {
  const { deps } = context;
  const planned = await migrations.plan(input);
  const queue = async () => {
    const queued = await withRedis(deps, () => queueMigration(planned, migrations.queues), { timeout: false });
    return { id: queued.id, created: queued.created };
  };
  const governance = deps.governance;
  if (governance === undefined) return { id: (await queue()).id, awaitingApproval: false };
  const gated = await withRedis(
    deps,
    () =>
      governance.gate.submit(
        {
          kind: 'migration',
          id: migrationIdOf(planned, deps.target.id),
          subject: planned.plan.source.path,
          target: deps.target.id,
          sim: deps.target.sim,
          plan: fingerprintOfBatchPlan(planned.plan),
          guardrails: planned.guardrails.reasons,
          input,
          requestedBy: actor ?? governance.operators.byToken(deps.token)!,
          reason,
        },
        queue,
      ),
    { timeout: false },
  );
  return gated.status === 'awaiting-approval' ? { id: gated.request.id, awaitingApproval: true } : { id: gated.queued.id, awaitingApproval: false };
}
