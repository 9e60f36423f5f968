import type { LazyCommand } from '../lazy-command.js';

/**
 * Every subcommand: one line each, name and summary here, the rest in its own file, loaded only when it runs
 * (lazy-command.ts). A command module exports `define<Name>Command(command)`, which adds arguments, options and action.
 */
export const COMMANDS: readonly LazyCommand[] = [
  { name: 'plan', summary: 'validate a manifest and check every row against live state; prints the plan, changes nothing', load: async () => (await import('./plan.js')).definePlanCommand },
  { name: 'run', summary: 'plan a manifest, execute it to the end with progress, print the summary and write the report', load: async () => (await import('./run.js')).defineRunCommand },
  { name: 'submit', summary: 'plan a manifest and queue it as a batch for workers; submitting the same file again finds the batch', load: async () => (await import('./submit.js')).defineSubmitCommand },
  { name: 'worker', summary: 'process queued batches until stopped (SIGINT/SIGTERM finish active rows, the rest stays queued)', load: async () => (await import('./worker.js')).defineWorkerCommand },
  { name: 'status', summary: 'show a batch (counts, failed rows), an offboarding, joiners, movers or domain migration workflow (per person: step done, next step and when), or list recent batches', load: async () => (await import('./status.js')).defineStatusCommand },
  { name: 'report', summary: 'write the per-row report of a batch as CSV or JSON Lines', load: async () => (await import('./report.js')).defineReportCommand },
  { name: 'retry', summary: 'queue the failed and cancelled rows of a batch again, and resume a batch stopped by a refused token', load: async () => (await import('./retry.js')).defineRetryCommand },
  { name: 'cancel', summary: 'cancel a batch: queued rows end cancelled, rows already running finish', load: async () => (await import('./cancel.js')).defineCancelCommand },
  { name: 'sim', summary: 'start the reference server (a local stand-in for the service) with demo data', load: async () => (await import('./sim.js')).defineSimCommand },
  { name: 'serve', summary: 'serve the HTTP control API, the dashboard and /metrics (token: SEATFLOW_CONTROL_TOKEN, or one is generated); --workers N also executes batches', load: async () => (await import('./serve.js')).defineServeCommand },
  { name: 'offboard', summary: 'offboard leavers: deactivate on the leave date, remove with transfer after a hold, undo until then', load: async () => (await import('./offboard.js')).defineOffboardCommand },
  { name: 'undo', summary: 'undo an offboarding before the removal (reactivate, cancel the removal), or joiners or movers of a sync before their step runs (per user or all)', load: async () => (await import('./undo.js')).defineUndoCommand },
  { name: 'reconcile', summary: 'plan the seat changes a licence policy asks for against live seats; --apply submits them as a batch and runs it', load: async () => (await import('./reconcile.js')).defineReconcileCommand },
  { name: 'doctor', summary: 'check and explain, one line each (OK/WARN/FAIL and what to do): token, target and its clock, Redis persistence, workers, steps due, schedules', load: async () => (await import('./doctor.js')).defineDoctorCommand },
  { name: 'schedule', summary: 'run a licence policy, or a sync of an HR export, on a schedule (fired by `seatflow worker`)', load: async () => (await import('./schedule.js')).defineScheduleCommand },
  { name: 'steps', summary: 'list the steps to come of offboardings, joiners and movers (due times on the service clock, whether a worker has them); steps run: run some now', load: async () => (await import('./steps.js')).defineStepsCommand },
  { name: 'approve', summary: 'list the changes waiting for approval, or approve one (re-planned before it runs; never by its requester)', load: async () => (await import('./approve.js')).defineApproveCommand },
  { name: 'reject', summary: 'refuse a change waiting for approval (or withdraw your own); --reason is required', load: async () => (await import('./reject.js')).defineRejectCommand },
  { name: 'audit', summary: 'the tamper-evident audit trail: export it (a date range, JSON Lines or CSV), verify its hash chain', load: async () => (await import('./audit.js')).defineAuditCommand },
  { name: 'revert', summary: 'undo a batch: plan the inverse of each change from the state recorded before it, then run it as a batch', load: async () => (await import('./revert.js')).defineRevertCommand },
  { name: 'export', summary: 'write live state out: export users (status, admin flags, seat per plan, last login), streamed within the paging rules', load: async () => (await import('./export.js')).defineExportCommand },
  { name: 'webhooks', summary: 'subscribe to the service\'s events (every user change, whoever made it) on `seatflow serve`; status, rotate the shared secret, unsubscribe', load: async () => (await import('./webhooks.js')).defineWebhooksCommand },
  { name: 'provisional', summary: 'list the Provisional Members and when their review period ends (tracked from the service\'s events); --refresh reads the plan again', load: async () => (await import('./provisional.js')).defineProvisionalCommand },
  { name: 'migrate', summary: 'ops migrations from live state: migrate domain (a mail domain change), columns (sheets to a standard), webhooks (re-point, rotate secrets, disable unused); --apply runs them', load: async () => (await import('./migrate.js')).defineMigrateCommand },
  { name: 'sync', summary: 'joiners, movers and leavers from an HR export, on their dates: plan against the live organization and the last accepted export; --apply queues them', load: async () => (await import('./sync.js')).defineSyncCommand },
];
