import os from 'node:os';
import { createOperatorDirectory } from '../governance/operators/operator-directory.js';
import type { Actor } from '../governance/operators/actor.js';
import type { CliRuntime } from './cli-runtime.js';

/** The OS account running this command ('unknown' where the platform has none). */
function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}

/**
 * Who this command acts as, for approvals and the audit trail: `--by NAME`, governance.cliOperator
 * (SEATFLOW_OPERATOR), or the OS account, checked against the configured operators (operator-directory.ts).
 */
export function cliActorOf(runtime: Pick<CliRuntime, 'config'>, by?: string): Actor {
  return createOperatorDirectory(runtime.config.governance).cli(osUser(), by);
}

/**
 * Who ran this command, for the audit trail of a command that needs no operator (cancel, retry, a schedule's run,
 * the configuration's record): the actor, or `unknown` when the OS account maps to no single operator.
 */
export function cliActorNameOf(runtime: Pick<CliRuntime, 'config'>): string {
  try {
    return cliActorOf(runtime).name;
  } catch {
    return 'unknown';
  }
}
