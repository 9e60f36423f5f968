import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root: where bin/seatflow and jobs/examples live. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface SeatflowResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs bin/seatflow as a person would, from the checkout (or `cwd`), with no access token from the caller's
 * environment unless `env` gives one.
 */
export function runSeatflow(args: string[], env: NodeJS.ProcessEnv = {}, options: { cwd?: string; timeoutMs?: number } = {}): Promise<SeatflowResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/seatflow'), ...args],
      { cwd: options.cwd ?? ROOT, env: { ...process.env, SMARTSHEET_ACCESS_TOKEN: '', REDIS_URL: '', ...env }, timeout: options.timeoutMs ?? 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number((error as { code?: number }).code ?? 1), stdout, stderr });
      },
    );
  });
}
