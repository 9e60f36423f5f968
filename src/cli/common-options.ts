import { Option, type Command } from 'commander';
import { parseRate, type ConfigOverrides } from '../core/config.js';
import { wholeNumber } from './whole-number.js';

/** Flags every command that talks to the service shares. */
export interface CommonFlags {
  sim?: boolean;
  config?: string;
  logLevel?: string;
  logFormat?: string;
  rateLimit?: string;
  concurrency?: string;
}

export function addCommonOptions(command: Command): Command {
  return command
    .option('--sim', 'run against an embedded reference server with demo data instead of the real service')
    .option('--config <file>', 'a JSON config file layered over config/default.json (env: SEATFLOW_CONFIG)')
    .addOption(new Option('--log-level <level>', 'log level').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .addOption(
      new Option('--log-format <format>', 'auto: a command that prints a summary logs to <home>/logs/seatflow.log, a service to stderr; json or pretty: to stderr (env SEATFLOW_LOG_FORMAT)').choices(['auto', 'json', 'pretty']),
    );
}

/** Turns the shared flags into config overrides (flags win over files and environment). */
export function overridesFromFlags(flags: CommonFlags): ConfigOverrides {
  const out: ConfigOverrides = {};
  if (flags.logLevel !== undefined) out.logLevel = flags.logLevel as ConfigOverrides['logLevel'];
  if (flags.logFormat !== undefined) out.logFormat = flags.logFormat as ConfigOverrides['logFormat'];
  if (flags.rateLimit !== undefined) out.rateLimit = parseRate(flags.rateLimit);
  if (flags.concurrency !== undefined) out.worker = { concurrency: wholeNumber('--concurrency', flags.concurrency, 1) };
  return out;
}
