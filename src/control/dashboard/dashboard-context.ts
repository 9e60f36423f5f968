import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { DashboardSessionStore } from '../auth/dashboard-session-store.js';
import type { BatchRecord } from '../../queue/batch-store.js';
import { operatorsOf, type ControlDeps } from '../control-deps.js';
import type { OperatorDirectory } from '../../governance/operators/operator-directory.js';
import { batchNotFound } from '../control-error.js';
import { batchParamsSchema } from '../request-schemas.js';
import { csrfTokenOf } from '../security/register-security.js';
import { withRedis } from '../with-redis.js';
import { createBudgetSampler, type BudgetSampler } from './budget-sampler.js';
import type { SafeHtml } from './html.js';
import { createFlash, withDone } from './flash.js';
import { NAV_ITEMS, page, type PageOptions } from './layout.js';
import type { Notice } from './notice.js';

export type RenderOptions = Omit<PageOptions, 'body' | 'sim' | 'targetLabel' | 'csrfToken' | 'navItems' | 'operator'>;

/** What every group of dashboard pages uses: route options, page rendering, and lookups shared between pages. */
export interface DashboardContext {
  deps: ControlDeps;
  /** Who a sign-in token belongs to (the control token, or an operator's own). */
  operators: OperatorDirectory;
  sessions: DashboardSessionStore;
  /** Route options of a signed-in page. */
  session: { config: { auth: 'session' } };
  /** Route options of a signed-in form post: its CSRF token is checked before the handler runs. */
  csrf: { config: { auth: 'session' }; preHandler: preHandlerHookHandler };
  /**
   * A whole page in the layout (SIMULATION banner, target). A request of an open session gets the navigation and the
   * sign-out form with its CSRF token; any other (the sign-in form, a refused request) neither.
   */
  render(reply: FastifyReply, body: SafeHtml, options: RenderOptions, status?: number): FastifyReply;
  /**
   * Answers a form post: keeps what it did for the request's session and redirects (303) to `url`, whose page shows
   * it first with keyboard focus on it. A reload of that page sends nothing again.
   */
  redirectWithNotice(request: FastifyRequest, reply: FastifyReply, url: string, notice: Notice): FastifyReply;
  /** A part of a page, for htmx to swap in. */
  fragment(reply: FastifyReply, body: SafeHtml): FastifyReply;
  /** The batch named by the `:id` of the route, or a 404. */
  batchOf(request: FastifyRequest): Promise<BatchRecord>;
  /** The fleet's request budget sampled for the batch page; undefined when this server has none. */
  sampler: BudgetSampler | undefined;
}

export function createDashboardContext(app: FastifyInstance, deps: ControlDeps, sessions: DashboardSessionStore): DashboardContext {
  const session = { config: { auth: 'session' as const } };
  const sampler = deps.budget === undefined ? undefined : createBudgetSampler(deps.budget.budget, deps.budget.rate);
  const navItems = NAV_ITEMS.filter((item) => item.needs === undefined || deps[item.needs] !== undefined);
  app.addHook('onClose', async () => sampler?.close());
  const notices = createFlash<Notice>((notice) => notice.text.length + (notice.items ?? []).reduce((sum, item) => sum + item.text.length, 0));
  const noticeOf = (request: FastifyRequest): { notice?: Notice } => {
    const notice = request.method === 'GET' ? notices.read(request) : undefined;
    return notice === undefined ? {} : { notice };
  };
  return {
    deps,
    operators: operatorsOf(deps),
    sessions,
    session,
    csrf: { ...session, preHandler: app.csrfProtection },
    render: (reply, body, options, status = 200) =>
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          page({
            ...options,
            body,
            navItems,
            sim: deps.target.sim,
            targetLabel: deps.target.label,
            ...(reply.request.dashboardSession === undefined ? {} : { csrfToken: csrfTokenOf(reply) }),
            ...(reply.request.dashboardSession === undefined || reply.request.actor === undefined ? {} : { operator: { name: reply.request.actor.name, role: reply.request.actor.role } }),
            ...(options.notice === undefined ? noticeOf(reply.request) : { notice: options.notice }),
          }).text,
        ),
    redirectWithNotice: (request, reply, url, notice) => reply.redirect(withDone(url, notices.keep(request, notice)), 303),
    fragment: (reply, body) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body.text),
    async batchOf(request) {
      const id = (request.params as { id?: string }).id ?? '';
      const batch = batchParamsSchema.safeParse({ id }).success ? await withRedis(deps, () => deps.batches.system.store.get(id)) : undefined;
      if (batch === undefined) throw batchNotFound(id);
      return batch;
    },
    sampler,
  };
}
