import type { Command } from 'commander';

/** Flags of the commands that request changes: why (a ticket), and as whom. */
export interface RequestFlags {
  reason?: string;
  by?: string;
}

export function addRequestOptions(command: Command): Command {
  return command
    .option('--reason <text>', 'the ticket or reason for this change, kept in the audit trail (e.g. "HR-1234")')
    .option('--by <operator>', 'the operator you act as (governance.operators; default: your OS account or SEATFLOW_OPERATOR)');
}

/**
 * Exit code of a command whose change waits for a second person's approval: nothing was changed yet, and it is not
 * an error (docs/governance.md#approvals).
 */
export const EXIT_AWAITING_APPROVAL = 4;
