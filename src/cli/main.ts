import { Command, CommanderError } from 'commander';
import { SEATFLOW_VERSION } from '../core/version.js';
import { RedisUnavailableError } from '../queue/redis/redis-unavailable-error.js';
import { reportFatal } from './report-fatal.js';
import { COMMANDS } from './commands/index.js';
import { registerLazyCommands } from './lazy-command.js';

/** The `seatflow` command: the composition root. Each subcommand lives in its own file under commands/, loaded when it runs. */
export function buildProgram(): Command {
  const program = new Command('seatflow')
    .description('Bulk user-lifecycle automation for the Smartsheet REST API')
    .version(SEATFLOW_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerLazyCommands(program, COMMANDS);
  return program;
}

/** `seatflow status | head`: the reader went away; stop quietly instead of dying on EPIPE. */
function exitQuietlyWhenTheReaderLeaves(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

async function main(argv: string[]): Promise<void> {
  exitQuietlyWhenTheReaderLeaves(process.stdout);
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; a bad flag is a refused input: exit 2.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    process.exitCode = reportFatal(error);
    // A command that gave up on a Redis which stopped answering may still hold connections to it that never close.
    if (error instanceof RedisUnavailableError) setTimeout(() => process.exit(), 500).unref();
  }
}

await main(process.argv);
