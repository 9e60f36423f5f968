import pino, { type Logger, type LoggerOptions } from 'pino';

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
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { app: 'seatflow' },
    ...(onWarning === undefined
      ? {}
      : {
          hooks: {
            logMethod(args, method, level) {
              if (level >= 40) onWarning();
              method.apply(this, args);
            },
          },
        }),
  };
  // Synchronous, so the last lines are written even when the process exits right after them.
  if (settings.file !== undefined) return pino(options, pino.destination({ dest: settings.file, mkdir: true, sync: true }));
  const pretty = settings.pretty ?? process.stderr.isTTY === true;
  if (pretty && settings.destination === undefined) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { destination: 2, colorize: true, ignore: 'pid,hostname,app' } },
    });
  }
  return pino(options, (settings.destination ?? pino.destination(2)) as pino.DestinationStream);
}

/** A logger that drops everything; for tests and library use without logging. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
