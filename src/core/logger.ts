import { createRequire } from 'node:module';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type * as PinoPrettyModule from 'pino-pretty';
import { printable } from './printable.js';

export type { Logger } from 'pino';

/** Paths pino blanks out wherever they appear, so a token never reaches a log line. */
export const REDACT_PATHS = [
  'accessToken',
  'token',
  'authorization',
  'Authorization',
  '*.accessToken',
  '*.token',
  '*.authorization',
  '*.Authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  'config.accessToken',
  'config.adminToken',
  // A webhook's shared secret (reset-webhook-secret, get-webhook answers): handed to the file a row names, never logged.
  'sharedSecret',
  '*.sharedSecret',
];

export interface LoggerSettings {
  /** pino level. Default `info`. */
  level?: string;
  /** Human-readable lines (pino-pretty) instead of JSON; default: when stderr is a terminal. */
  pretty?: boolean;
  /** Where lines go; default stderr, so stdout stays for tables, reports and `--json`. */
  destination?: NodeJS.WritableStream;
  /** Append JSON lines to this file instead (its folder is created), so they never mix with what a person reads. */
  file?: string;
  /** Called for each line at warn level or above (the CLI counts them to point at the log file). */
  onWarning?: () => void;
}

export function createLogger(settings: LoggerSettings = {}): Logger {
  const { onWarning } = settings;
  // Synchronous, so the last lines are written even when the process exits right after them.
  if (settings.file !== undefined) return pino(optionsOf(settings, false), pino.destination({ dest: settings.file, mkdir: true, sync: true }));
  const pretty = settings.pretty ?? process.stderr.isTTY === true;
  const options = optionsOf(settings, pretty);
  if (pretty && settings.destination === undefined) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { ...PRETTY, destination: 2, colorize: true } } });
  }
  if (pretty) {
    // Loaded only here (a given stream, read by a person: tests), so that every command's start does not pay for it.
    const { PinoPretty } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPrettyModule;
    return pino(options, PinoPretty({ ...PRETTY, destination: settings.destination, colorize: false, sync: true }));
  }
  return pino(options, (settings.destination ?? pino.destination(2)) as pino.DestinationStream);

  function optionsOf(of: LoggerSettings, forPeople: boolean): LoggerOptions {
    return {
      level: of.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      base: { app: 'seatflow' },
      // Lines a person reads on a terminal: a value from a manifest or the service cannot move the cursor, recolour or
      // reorder the screen (JSON lines escape control characters themselves, and are read by programs).
      ...(forPeople ? { formatters: { log: printableFields } } : {}),
      hooks: {
        logMethod(args, method, level) {
          if (level >= 40) onWarning?.();
          method.apply(this, forPeople ? (args.map((arg) => (typeof arg === 'string' ? printable(arg, { keepLineBreaks: true }) : arg)) as typeof args) : args);
        },
      },
    };
  }
}

const PRETTY = { ignore: 'pid,hostname,app' };

/** A log line's fields with every string in plain objects and arrays shown as `printable` (line breaks kept). */
export function printableFields(object: Record<string, unknown>): Record<string, unknown> {
  const clean = (value: unknown): unknown => {
    if (typeof value === 'string') return printable(value, { keepLineBreaks: true });
    if (Array.isArray(value)) return value.map(clean);
    // Plain objects only: an Error (or another class) keeps what its serializer reads from it.
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, clean(field)]));
    }
    return value;
  };
  return clean(object) as Record<string, unknown>;
}

/** A logger that drops everything; for tests and library use without logging. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
