/** The HTTP control API, the dashboard and /metrics: a thin adapter over the plan and queue functions the CLI uses. */
export { buildControlApp } from './build-control-app.js';
export { startControlServer, isLoopbackHost, type RunningControlServer, type StartControlServerOptions } from './start-control-server.js';
export type { ControlBatchDeps, ControlDeps, ControlHttpPolicy, ControlTarget } from './control-deps.js';
export { createSeatflowMetrics, type MetricsSources, type SeatflowMetrics } from './metrics/seatflow-metrics.js';
export { startMetricsServer, type MetricsServer } from './metrics/start-metrics-server.js';
export { NAV_ITEMS } from './dashboard/layout.js';
export { CONTROL_ERROR_CODES, ControlError } from './control-error.js';
