import type { Command } from 'commander';

/**
 * One subcommand of `seatflow`: its name and one-line summary are always known (they make `seatflow --help`); its
 * arguments, options, action and every module they use are loaded only when the command is run or its help is asked.
 */
export interface LazyCommand {
  name: string;
  summary: string;
  /** Imports the command's module; what it returns adds the arguments, options and action to the named command. */
  load(): Promise<(command: Command) => void>;
}

/**
 * Registers every command as a named, described stub and completes the one that runs, just before commander parses
 * its arguments (the `preSubcommand` hook), so a command pays at start only for the modules it uses.
 */
export function registerLazyCommands(program: Command, commands: readonly LazyCommand[]): void {
  const pending = new Map<Command, LazyCommand['load']>();
  for (const { name, summary, load } of commands) pending.set(program.command(name).description(summary), load);

  const complete = async (command: Command): Promise<void> => {
    const load = pending.get(command);
    if (load === undefined) return;
    pending.delete(command);
    (await load())(command);
  };
  program.hook('preSubcommand', (_program, command) => complete(command));

  // commander's own `help COMMAND` prints a command's help without passing through the hook: this one completes it.
  program.helpCommand(false);
  program
    .command('help')
    .description('display help for a command')
    .argument('[command]', 'the command')
    .action(async (name: string | undefined) => {
      if (name === undefined) return program.help();
      const command = program.commands.find((candidate) => candidate.name() === name);
      if (command === undefined) return program.error(`error: unknown command '${name}'`, { exitCode: 2 });
      await complete(command);
      command.help();
    });
}
