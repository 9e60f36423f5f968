import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createDemoFixture, DEMO } from './demo/demo-organization.js';
import { loadFixture, parseFixture } from './demo/load-fixture.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from './http/api-error.js';
import { registerContentParsers } from './http/content-parsers.js';
import { registerErrorHandler, sendError } from './http/error-handler.js';
import { buildPathMatchers, operationOf, registerApiRoutes } from './http/register-api-routes.js';
import { DEFAULT_RATE_LIMIT, type ReferenceServerOptions } from './reference-server-options.js';
import { API_ROUTES } from './routes/api-routes.js';
import { MULTIPART_LIMITS } from './routes/discussion-multipart.js';
import { MAX_PROFILE_IMAGE_BYTES } from './routes/profile-image.js';
import { registerSimControls, type SimStateControls } from './routes/sim-controls.js';
import { createPlanNameCache } from './rules/plan-name-cache.js';
import { WEBHOOK_LIST_SUNSET } from './rules/webhook-listing.js';
import { VIEWER_SUNSET_AT } from '../contract/index.js';
import type { ServerContext } from './server-context.js';
import { createFaultInjector, type FaultInjector } from './sim/faults.js';
import { createMutationLog, type MutationLog } from './sim/mutation-log.js';
import { createRequestLog, flatQuery, type RequestLog } from './sim/request-log.js';
import { createRateLimiter, type RateLimiter } from './sim/rate-limit.js';
import { createSimClock, type SimClock } from './sim/sim-clock.js';
import type { ParsedFixture } from './demo/fixture-schema.js';
import { createCallbackDispatcher, DEFAULT_RETRY_DELAYS_MS, type CallbackDispatcher } from './webhooks/callback-dispatcher.js';
import { createServerEvents } from './webhooks/server-events.js';

/** The status logged for a request whose client closed it before an answer came (nginx's convention). */
const CLIENT_CLOSED_REQUEST = 499;

/** The tokens a newcomer needs; the app token acts for the admin on behalf of the app "Acme HR Sync". */
export interface ReferenceServerTokens {
  admin: string;
  user: string;
  app: string;
}

/** An unstarted reference server and the handles tests use to steer it. */
export interface ReferenceServer {
  app: FastifyInstance;
  /** Live context: `context.state` is replaced by reset and load, so read it each time. */
  context: ServerContext;
  clock: SimClock;
  mutations: MutationLog;
  /** Every API request answered, with query and status (never part of the API; GET /_sim/requests). */
  requests: RequestLog;
  faults: FaultInjector;
  rateLimiter: RateLimiter;
  controls: SimStateControls;
  /** Callbacks queued or being sent; `idle()` resolves once none is (docs/reference-server.md#callbacks). */
  callbacks: Pick<CallbackDispatcher, 'idle'>;
  tokens: ReferenceServerTokens;
  /** The demo plan id (or the fixture's first plan). */
  planId: number;
}

function toEpoch(value: number | string): number {
  return typeof value === 'number' ? value : Date.parse(value);
}

/**
 * Builds the reference server without listening: test with `app.inject()`, or call `startReferenceServer` to serve
 * on a port. Default data is the deterministic demo organization.
 */
export function buildReferenceServer(options: ReferenceServerOptions = {}): ReferenceServer {
  const adminToken = options.adminToken ?? DEMO.adminToken;
  const clock = createSimClock(options.now === undefined ? undefined : toEpoch(options.now));
  const mutations = createMutationLog(() => clock.now());
  const requests = createRequestLog(() => clock.now());
  const seed = options.idSeed ?? 'seatflow';
  const initialFixture = (): ParsedFixture =>
    options.data === undefined ? createDemoFixture({ adminToken, generatedUsers: options.users ?? 300 }) : parseFixture(options.data);
  let refSeq = 0;
  const refPrefix = Math.floor(clock.now() / 1000).toString(36);
  const viewerSunsetAt = options.viewerSunset === undefined ? VIEWER_SUNSET_AT : toEpoch(options.viewerSunset);
  const verificationTimeoutMs = options.verificationTimeoutMs ?? 5000;
  // Reads the context's state at each send: /_sim/reset and /_sim/load replace it.
  const dispatcher = createCallbackDispatcher({
    webhook: (id) => context.state.webhooks.get(id),
    clock,
    mutations,
    settings: {
      debounceMs: options.callbackDebounceMs ?? 250,
      retryDelaysMs: options.callbackRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      timeoutMs: options.callbackTimeoutMs ?? 10_000,
      reverifyEvery: 100,
      verificationTimeoutMs,
    },
  });
  const context: ServerContext = {
    state: loadFixture(initialFixture(), clock.now(), seed),
    clock,
    mutations,
    planNames: createPlanNameCache(() => clock.now(), options.planNameCacheTtlMs ?? 4 * 3_600_000),
    events: createServerEvents({ state: () => context.state, clock, viewerSunsetAt, dispatcher }),
    settings: {
      reactivationWindowMs: (options.reactivationWindowDays ?? 30) * 86_400_000,
      provisionalReviewMs: (options.provisionalReviewDays ?? 30) * 86_400_000,
      gov: options.gov ?? false,
      webhookSunsetAt: options.webhookSunset === undefined ? WEBHOOK_LIST_SUNSET : toEpoch(options.webhookSunset),
      viewerSunsetAt,
      verificationTimeoutMs,
      adminToken,
    },
    nextRefId: () => `sim-${refPrefix}-${(refSeq += 1).toString(36)}`,
  };
  const faults = createFaultInjector(options.faults ?? '', options.faultSeed ?? 1);
  const rateLimiter = createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT, () => clock.now());
  const controls: SimStateControls = {
    reset() {
      dispatcher.clear();
      context.state = loadFixture(initialFixture(), clock.now(), seed);
      context.planNames.clear();
      mutations.clear();
      requests.clear();
      rateLimiter.reset();
    },
    load(fixture) {
      dispatcher.clear();
      context.state = loadFixture(parseFixture(fixture), clock.now(), seed);
      context.planNames.clear();
      mutations.clear();
    },
    snapshot() {
      const { state } = context;
      return {
        org: state.org,
        plans: [...state.plans.values()],
        counts: { users: state.users.size, groups: state.groups.size, sheets: state.sheets.size, webhooks: state.webhooks.size, mutations: mutations.size() },
        groups: [...state.groups.values()],
        sheets: [...state.sheets.values()].map((s) => ({ id: s.id, name: s.name, ownerId: s.ownerId, sharing: s.sharing })),
      };
    },
  };

  const jsonBytes = options.jsonBodyLimitBytes ?? 5 * 1024 * 1024;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: jsonBytes,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
  });
  registerContentParsers(app, { jsonBytes, imageBytes: MAX_PROFILE_IMAGE_BYTES });
  void app.register(multipart, { limits: MULTIPART_LIMITS });
  registerErrorHandler(app, context.nextRefId);
  app.addHook('onClose', async () => dispatcher.close());
  registerApiRoutes(app, API_ROUTES, { server: context, rateLimiter, faults });
  registerSimControls(app, { server: context, faults, rateLimiter, requests, stateControls: controls });
  app.addHook('onResponse', async (request, reply) => {
    const operation = operationOf(request);
    if (operation === undefined) return;
    requests.record({ method: request.method, path: request.url.split('?')[0] ?? '', query: flatQuery(request.query), operation, status: reply.statusCode });
  });
  // A request whose connection closed before its answer was written (its client gave up, or a fault cut it) is still
  // served and may still change something: it was sent, so it is logged, with 499 for a status no answer reached.
  // (Fastify's onRequestAbort fires only while the request's body is still arriving.)
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.once('close', () => {
      // An answer under way is logged by onResponse.
      if (reply.raw.headersSent) return;
      const operation = operationOf(request);
      if (operation === undefined) return;
      requests.record({ method: request.method, path: request.url.split('?')[0] ?? '', query: flatQuery(request.query), operation, status: CLIENT_CLOSED_REQUEST });
    });
  });

  const matchers = buildPathMatchers(API_ROUTES);
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const known = matchers.some((m) => m.pattern.test(path));
    const error = known
      ? new ApiError(405, CODES.urlMethodNotSupported, `The URL does not support the ${request.method} method.`)
      : ApiError.notFound(`No resource at ${path}.`);
    return sendError(reply, error, context.nextRefId());
  });

  const firstPlan = [...context.state.plans.keys()][0] ?? DEMO.planId;
  return {
    app,
    context,
    clock,
    mutations,
    requests,
    faults,
    rateLimiter,
    controls,
    callbacks: dispatcher,
    tokens: { admin: adminToken, user: DEMO.userToken, app: DEMO.appToken },
    planId: firstPlan,
  };
}
