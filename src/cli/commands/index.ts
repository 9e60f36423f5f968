import type { Command } from 'commander';
import { registerPlanCommand } from './plan.js';
import { registerRunCommand } from './run.js';
import { registerSubmitCommand } from './submit.js';
import { registerWorkerCommand } from './worker.js';
import { registerStatusCommand } from './status.js';
import { registerReportCommand } from './report.js';
import { registerRetryCommand } from './retry.js';
import { registerCancelCommand } from './cancel.js';
import { registerSimCommand } from './sim.js';
import { registerServeCommand } from './serve.js';
import { registerOffboardCommand } from './offboard.js';
import { registerUndoCommand } from './undo.js';
import { registerReconcileCommand } from './reconcile.js';
import { registerScheduleCommand } from './schedule.js';
import { registerExportCommand } from './export.js';
import { registerStepsCommand } from './steps.js';
import { registerApproveCommand } from './approve.js';
import { registerRejectCommand } from './reject.js';
import { registerAuditCommand } from './audit.js';
import { registerRevertCommand } from './revert.js';

/**
 * Every subcommand, each built in its own file. Add one line per command here.
 */
export function registerCommands(program: Command): void {
  registerPlanCommand(program);
  registerRunCommand(program);
  registerSubmitCommand(program);
  registerWorkerCommand(program);
  registerStatusCommand(program);
  registerReportCommand(program);
  registerRetryCommand(program);
  registerCancelCommand(program);
  registerSimCommand(program);
  registerServeCommand(program);
  registerOffboardCommand(program);
  registerUndoCommand(program);
  registerReconcileCommand(program);
  registerScheduleCommand(program);
  registerExportCommand(program);
  registerStepsCommand(program);
  registerApproveCommand(program);
  registerRejectCommand(program);
  registerAuditCommand(program);
  registerRevertCommand(program);
}
