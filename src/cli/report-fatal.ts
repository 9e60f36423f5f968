import { SeatflowError, UsageError } from '../core/seatflow-error.js';

/** Prints an error a person can act on and returns the exit code: 2 for refused input, 1 otherwise. */
export function reportFatal(error: unknown, stream: NodeJS.WritableStream = process.stderr): number {
  if (error instanceof SeatflowError) {
    stream.write(`seatflow: ${error.message}\n`);
    if (error.hint !== undefined) stream.write(`  ${error.hint}\n`);
    return error instanceof UsageError ? 2 : (exitCodeOf(error) ?? 1);
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stream.write(`seatflow: unexpected error: ${message}\n`);
  return 1;
}

function exitCodeOf(error: SeatflowError): number | undefined {
  const code = (error as { exitCode?: unknown }).exitCode;
  return typeof code === 'number' ? code : undefined;
}
