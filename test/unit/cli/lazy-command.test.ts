import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import { registerLazyCommands, type LazyCommand } from '../../../src/cli/lazy-command.js';

/** A program of two commands whose modules count their loads; output captured, exits thrown as CommanderError. */
function program() {
  const ran: string[] = [];
  const load = { build: vi.fn(), clean: vi.fn() };
  const commands: LazyCommand[] = [
    {
      name: 'build',
      summary: 'build it',
      load: async () => {
        load.build();
        return (command) => command.argument('<what>').option('--fast', 'go fast').action((what: string) => void ran.push(`build ${what}`));
      },
    },
    {
      name: 'clean',
      summary: 'clean it',
      load: async () => {
        load.clean();
        return (command) => command.action(() => void ran.push('clean'));
      },
    },
  ];
  let out = '';
  const root = new Command('tool').exitOverride().configureOutput({ writeOut: (text) => (out += text), writeErr: (text) => (out += text) });
  registerLazyCommands(root, commands);
  const parse = (...args: string[]) => root.parseAsync(args, { from: 'user' }).catch((error: unknown) => error);
  return { ran, load, parse, output: () => out };
}

describe('registerLazyCommands', () => {
  it('lists every command with its summary in --help without loading any', async () => {
    const { load, parse, output } = program();
    await parse('--help');
    expect(output()).toMatch(/build\s+build it/);
    expect(output()).toMatch(/clean\s+clean it/);
    expect(load.build).not.toHaveBeenCalled();
    expect(load.clean).not.toHaveBeenCalled();
  });

  it('loads only the command that runs, with its arguments and options', async () => {
    const { ran, load, parse } = program();
    await parse('build', 'docs', '--fast');
    expect(ran).toEqual(['build docs']);
    expect(load.build).toHaveBeenCalledTimes(1);
    expect(load.clean).not.toHaveBeenCalled();
  });

  it('refuses help for a command it does not have, with exit 2', async () => {
    const { load, parse, output } = program();
    const error = (await parse('help', 'nope')) as { exitCode?: number };
    expect(error.exitCode).toBe(2);
    expect(output()).toContain("unknown command 'nope'");
    expect(load.build).not.toHaveBeenCalled();
  });

  it('shows a command’s own options for `COMMAND --help` and `help COMMAND`', async () => {
    for (const args of [['build', '--help'], ['help', 'build']]) {
      const { parse, output } = program();
      await parse(...args);
      expect(output()).toContain('Usage: tool build [options] <what>');
      expect(output()).toContain('--fast');
    }
  });
});

describe('the seatflow commands', () => {
  it('each module defines its command: arguments, options and an action or subcommands', async () => {
    for (const entry of COMMANDS) {
      const command = new Command(entry.name);
      (await entry.load())(command);
      expect(command.options.length + command.commands.length, entry.name).toBeGreaterThan(0);
    }
  });
});
