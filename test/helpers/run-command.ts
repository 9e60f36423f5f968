import { execFile } from 'node:child_process';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (or `timeoutMs`) and resolves with its exit code and output; never rejects. */
export function runCommand(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 180_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number((error as { code?: number }).code ?? 1), stdout, stderr });
    });
  });
}
