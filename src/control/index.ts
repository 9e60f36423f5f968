/** The HTTP control API: a thin adapter over the plan and queue functions the CLI uses. */
export { buildControlApp } from './build-control-app.js';
export { startControlServer, isLoopbackHost, type RunningControlServer, type StartControlServerOptions } from './start-control-server.js';
export type { ControlBatchDeps, ControlDeps, ControlTarget } from './control-deps.js';
export { CONTROL_ERROR_CODES, ControlError } from './control-error.js';
