import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PACKAGE_ROOT } from '../../core/config.js';
import { ACTION_NAMES } from '../../manifest/action.js';
import { detectManifestFormat } from '../../manifest/manifest-format.js';
import { reportLines } from '../../queue/report-writer.js';
import { OUTCOMES, type RowOutcome } from '../../queue/row-outcome.js';
import { createBearerTokenCheck } from '../auth/bearer-token-check.js';
import { endSession, startSession } from '../auth/dashboard-session.js';
import type { ControlDeps } from '../control-deps.js';
import { ControlError } from '../control-error.js';
import { batchParamsSchema } from '../request-schemas.js';
import { submitManifest } from '../submit-manifest.js';
import { toControlError } from '../to-control-error.js';
import { planWithinDeadline } from '../plan-within-deadline.js';
import { requireTarget } from '../routes/plan-routes.js';
import { withRedis } from '../with-redis.js';
import { html, type SafeHtml } from './html.js';
import { page, type PageOptions } from './layout.js';
import { batchesPage, batchesTable } from './pages/batches-page.js';
import { batchLive, batchPage, confirmPage, type BudgetView } from './pages/batch-page.js';
import { loginPage } from './pages/login-page.js';
import { planForm, planPreviewPage } from './pages/plan-page.js';
import { createBudgetSampler } from './budget-sampler.js';
import { createPlanPreviews } from './plan-previews.js';
import { registerQueueBoard } from './register-queue-board.js';

/** The dashboard's stylesheet and script, at the package root so that src/ and dist/ serve the same files. */
const ASSETS_DIR = path.join(PACKAGE_ROOT, 'assets', 'dashboard');
/** htmx from the installed package, served by this server: the dashboard loads nothing from the internet. */
const HTMX = readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'));
const ROWS_PER_PAGE = 200;

const session = { config: { auth: 'session' as const } };
const rowsQuerySchema = z.object({ outcome: z.enum(OUTCOMES).optional().catch(undefined), offset: z.coerce.number().int().min(0).max(10_000_000).default(0).catch(0) });
const loginSchema = z.object({ token: z.string().default(''), next: z.string().default('/batches') });
const uploadSchema = z.object({ action: z.enum(ACTION_NAMES).optional().catch(undefined), skipInvalid: z.literal('true').optional().catch(undefined) });

/** Only a path of this server, never `//other.example` or a full URL, may be where sign-in sends the person next. */
function safeNext(next: string): string {
  return /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/batches';
}

/**
 * The dashboard: server-rendered pages over the same functions as /v1 (htmx polls the parts that move). Pages need
 * the sign-in cookie; every form carries a CSRF token.
 */
export async function registerDashboard(app: FastifyInstance, deps: ControlDeps): Promise<void> {
  const { system } = deps.batches;
  const previews = createPlanPreviews();
  const tokenMatches = createBearerTokenCheck(deps.token);
  const bodyLimit = deps.bodyLimitBytes ?? 10 * 1024 * 1024;
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  await app.register(fastifyMultipart, { attachFieldsToBody: true, limits: { fileSize: bodyLimit, files: 1, fields: 10 } });
  await app.register(fastifyStatic, { root: ASSETS_DIR, prefix: '/assets/', decorateReply: false, index: false, wildcard: false, allowedPath: (file) => !file.includes('..') });
  app.get('/assets/htmx.min.js', { config: { auth: 'public' } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(HTMX));

  const csrf = { ...session, preHandler: app.csrfProtection };
  const render = (reply: FastifyReply, body: SafeHtml, options: Omit<PageOptions, 'body' | 'sim' | 'targetLabel' | 'csrfToken'> & { signedIn?: boolean }, status = 200) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page({ ...options, body, sim: deps.target.sim, targetLabel: deps.target.label, ...(options.signedIn === false ? {} : { csrfToken: reply.generateCsrf() }) }).text);
  const fragment = (reply: FastifyReply, body: SafeHtml) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body.text);
  const batchOf = async (request: FastifyRequest) => {
    const id = (request.params as { id?: string }).id ?? '';
    const batch = batchParamsSchema.safeParse({ id }).success ? await withRedis(deps, () => system.store.get(id)) : undefined;
    if (batch === undefined) throw new ControlError(404, 'BATCH_NOT_FOUND', `no batch ${id}`, { hint: 'See the list of batches.' });
    return batch;
  };

  const sampler = deps.budget === undefined ? undefined : createBudgetSampler(deps.budget.budget);
  app.addHook('onClose', async () => sampler?.close());
  const budgetView = async (): Promise<BudgetView | undefined> => {
    if (sampler === undefined || deps.budget === undefined) return undefined;
    const { rate } = deps.budget;
    return { ...(await sampler.rates()), allowedPerMinute: (rate.requests * (1 - rate.headroom) * 60) / rate.perSeconds };
  };

  app.setErrorHandler((error, request, reply) => {
    const answer = toControlError(error, false);
    if (answer.statusCode >= 500) request.log.error({ err: error }, 'dashboard request failed');
    if (answer.code === 'FST_CSRF_INVALID_TOKEN' || (error as { code?: string }).code?.startsWith('FST_CSRF') === true) {
      return render(reply, errorBody('The form expired or did not come from this dashboard. Load the page again and resend it.'), { title: 'Form expired' }, 403);
    }
    return render(reply, errorBody(answer.message, answer.hint), { title: 'Error' }, answer.statusCode);
  });

  app.get('/', session, async (_request, reply) => reply.redirect('/batches', 303));
  app.get('/login', { config: { auth: 'public' } }, async (request, reply) => {
    const next = safeNext(String((request.query as { next?: unknown }).next ?? '/batches'));
    return render(reply, loginPage({ csrfToken: reply.generateCsrf(), next }), { title: 'Sign in', signedIn: false });
  });
  app.post('/login', { config: { auth: 'public' }, preHandler: app.csrfProtection }, async (request, reply) => {
    const form = loginSchema.parse(request.body ?? {});
    if (!tokenMatches(`Bearer ${form.token}`)) {
      return render(reply, loginPage({ csrfToken: reply.generateCsrf(), next: safeNext(form.next), error: 'That is not the control token of this server.' }), { title: 'Sign in', signedIn: false }, 401);
    }
    startSession(request, reply);
    return reply.redirect(safeNext(form.next), 303);
  });
  app.post('/logout', csrf, async (_request, reply) => {
    endSession(reply);
    return reply.redirect('/login', 303);
  });

  app.get('/batches', session, async (_request, reply) => render(reply, batchesPage(await withRedis(deps, () => system.store.list(50))), { title: 'Batches', section: 'batches' }));
  app.get('/batches/live', session, async (_request, reply) => fragment(reply, batchesTable(await withRedis(deps, () => system.store.list(50)))));

  app.get('/batches/:id', session, async (request, reply) => {
    const batch = await batchOf(request);
    const query = rowsQuerySchema.parse(request.query ?? {});
    const rows: RowOutcome[] = [];
    let seen = 0;
    let more = false;
    for await (const outcome of system.store.outcomes(batch.id)) {
      if (query.outcome !== undefined && outcome.outcome !== query.outcome) continue;
      seen += 1;
      if (seen <= query.offset) continue;
      if (rows.length === ROWS_PER_PAGE) {
        more = true;
        break;
      }
      rows.push(outcome);
    }
    return render(reply, batchPage(batch, await budgetView(), { filter: query.outcome, rows, more, offset: query.offset }), { title: batch.source, section: 'batches' });
  });
  app.get('/batches/:id/live', session, async (request, reply) => fragment(reply, batchLive(await batchOf(request), await budgetView())));
  for (const format of ['csv', 'jsonl'] as const) {
    app.get(`/batches/:id/report.${format}`, session, async (request, reply) => {
      const batch = await batchOf(request);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${batch.id}${batch.sim ? '-simulation' : ''}.${format}"`)
        .send(Readable.from(reportLines(system.store.outcomes(batch.id), format)));
    });
  }
  for (const what of ['retry', 'cancel'] as const) {
    app.get(`/batches/:id/${what}`, session, async (request, reply) => {
      const batch = await batchOf(request);
      return render(reply, confirmPage(batch, what, reply.generateCsrf()), { title: what === 'retry' ? 'Retry failed rows' : 'Cancel batch', section: 'batches' });
    });
    app.post(`/batches/:id/${what}`, csrf, async (request, reply) => {
      const batch = await batchOf(request);
      await withRedis(deps, async () => void (what === 'retry' ? await system.control.retry(batch.id) : await system.control.cancel(batch.id)), { timeout: false });
      return reply.redirect(`/batches/${batch.id}`, 303);
    });
  }

  app.get('/plan', session, async (_request, reply) => render(reply, planForm(reply.generateCsrf()), { title: 'Plan a manifest', section: 'plan' }));
  app.post('/plan', csrf, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, { type?: string; value?: unknown; filename?: string; toBuffer?: () => Promise<Buffer> } | undefined>;
    const file = body.manifest;
    const fields = uploadSchema.parse({ action: fieldValue(body.action), skipInvalid: fieldValue(body.skipInvalid) });
    const bytes = file?.type === 'file' && file.toBuffer !== undefined ? await file.toBuffer() : Buffer.alloc(0);
    if (bytes.length === 0) return render(reply, planForm(reply.generateCsrf(), { message: 'Choose a manifest file first (it was empty or missing).' }), { title: 'Plan a manifest', section: 'plan' }, 400);
    const name = path.basename(file?.filename ?? 'manifest.csv') || 'manifest.csv';
    const format = detectManifestFormat(name, bytes.subarray(0, 4096).toString('utf8'));
    requireTarget(deps);
    try {
      const planned = await planWithinDeadline(deps, { bytes, format, name, api: deps.api, skipInvalid: fields.skipInvalid === 'true', ...(fields.action === undefined ? {} : { defaultAction: fields.action }) });
      const previewId = previews.add({ bytes, format, name, action: fields.action, skipInvalid: fields.skipInvalid === 'true', needsConfirmation: planned.guardrails.needsConfirmation });
      return render(reply, planPreviewPage({ previewId, name, plan: planned.plan, guardrails: planned.guardrails, warnings: planned.manifest.warnings.map(String), csrfToken: reply.generateCsrf() }), { title: `Plan of ${name}`, section: 'plan' });
    } catch (error) {
      const answer = toControlError(error, false);
      const problems = (answer.details?.problems as Array<{ row: number; field?: string; message: string }> | undefined)?.map((p) => `row ${p.row}${p.field === undefined ? '' : ` ${p.field}`}: ${p.message}`);
      return render(reply, planForm(reply.generateCsrf(), { message: answer.message.split('\n', 1)[0] ?? answer.message, ...(problems === undefined ? {} : { problems }) }), { title: 'Plan a manifest', section: 'plan' }, answer.statusCode);
    }
  });
  app.post('/plan/:previewId/submit', csrf, async (request, reply) => {
    const previewId = (request.params as { previewId: string }).previewId;
    const preview = previews.get(previewId);
    if (preview === undefined) return render(reply, planForm(reply.generateCsrf(), { message: 'That preview has expired. Choose the manifest again.' }), { title: 'Plan a manifest', section: 'plan' }, 410);
    const confirmed = fieldValue((request.body as Record<string, unknown> | undefined)?.confirm) === 'true';
    if (!confirmed) return render(reply, planForm(reply.generateCsrf(), { message: 'Tick the confirmation box to submit the batch.' }), { title: 'Plan a manifest', section: 'plan' }, 400);
    const result = await submitManifest(deps, { bytes: preview.bytes, format: preview.format, name: preview.name, action: preview.action, skipInvalid: preview.skipInvalid, confirm: true });
    previews.delete(previewId);
    return reply.redirect(`/batches/${result.batchId}`, 303);
  });

  await registerQueueBoard(app, deps);
}

/** A form field as a string, whether the form came url-encoded (a string) or as multipart (a field object). */
function fieldValue(field: unknown): string | undefined {
  if (typeof field === 'string') return field;
  if (typeof field === 'object' && field !== null && 'value' in field) return String((field as { value: unknown }).value);
  return undefined;
}

function errorBody(message: string, hint?: string): SafeHtml {
  return html`<section class="narrow"><h1>Something went wrong</h1><p class="error" role="alert">${message}</p>${hint === undefined ? '' : html`<p>${hint}</p>`}<p><a href="/batches">Back to the batches</a></p></section>`;
}
