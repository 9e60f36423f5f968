import type { Command } from 'commander';

/**
 * Every subcommand, each built in its own file. Add one line per command here.
 */
export function registerCommands(program: Command): void {
  void program;
}
