import { Option, type Command } from 'commander';
import { addCommonOptions } from '../common-options.js';
import type { ExportUsersFlags } from '../export-users.js';

/**
 * `seatflow export users`: live state out, as CSV or JSON Lines. The work is loaded only when the command runs.
 */
export function defineExportCommand(exportCommand: Command): void {
  const users = exportCommand
    .command('users')
    .description('every user of the organization with status, admin flags, seat per plan and last login, streamed within the service paging rules; prints the plan of calls first')
    .addOption(new Option('--format <format>', 'csv or jsonl (default: from --out, else csv)').choices(['csv', 'jsonl']))
    .option('--fields <list>', 'the columns, comma-separated (see docs/sync.md for the list and what each costs)')
    .option('--out <file>', 'write to FILE (written whole or not at all); default stdout')
    .option('--plan <ids>', "plans whose seats are read, comma-separated (default: the plans of the token's user)");
  addCommonOptions(users).action(async (flags: ExportUsersFlags) => {
    const { exportUsers } = await import('../export-users.js');
    process.exitCode = await exportUsers(flags);
  });
}
