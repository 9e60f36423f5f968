import path from 'node:path';
import type { Config } from '../core/config.js';
import type { LoggerSettings } from '../core/logger.js';

/** The default log file of commands that print a summary: `<seatflow home>/logs/seatflow.log`. */
export function defaultLogFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'logs', 'seatflow.log');
}

/**
 * Where a command's log lines go (config `logFormat`): a command that prints a summary logs to a file, so no log line
 * lands between the lines of its summary or progress; a service logs to stderr; `json` and `pretty` force stderr.
 */
export function logDestinationOf(config: Pick<Config, 'dataDir' | 'logFormat' | 'logFile'>, output: 'summary' | 'service'): Pick<LoggerSettings, 'file' | 'pretty'> {
  switch (config.logFormat) {
    case 'json':
      return { pretty: false };
    case 'pretty':
      return { pretty: true };
    case 'auto':
      return output === 'summary' ? { file: config.logFile ?? defaultLogFile(config) } : {};
  }
}
