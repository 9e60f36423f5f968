/** The reference server: the service of docs/service.md (docs/reference-server.md), for tests, benchmarks and `seatflow sim`. */
export { buildReferenceServer, type ReferenceServer, type ReferenceServerTokens } from './build-reference-server.js';
export { startReferenceServer, type RunningReferenceServer, type StartReferenceServerOptions } from './start-reference-server.js';
export type { ReferenceServerOptions } from './reference-server-options.js';
export { DEMO } from './demo/demo-organization.js';
export type { Fixture } from './demo/fixture-schema.js';
export type { Mutation, MutationFilter } from './sim/mutation-log.js';
export type { LoggedRequest, RequestLogFilter } from './sim/request-log.js';
export { parseRateLimit } from './sim/rate-limit.js';
export { parseFaultSpec } from './sim/faults.js';
