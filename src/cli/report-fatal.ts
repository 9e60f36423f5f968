import { isApiError, ServiceUnavailableError, type ApiError } from '../client/api-error.js';
import { SeatflowError, UsageError } from '../core/seatflow-error.js';
import { printable } from '../core/printable.js';

/**
 * Prints an error a person can act on and returns the exit code: 2 for refused input or configuration (a refused
 * access token included), 1 otherwise.
 */
export function reportFatal(error: unknown, stream: NodeJS.WritableStream = process.stderr): number {
  if (error instanceof SeatflowError) {
    // Messages carry values from manifests, files and the service: shown, never acted on by the terminal.
    stream.write(`seatflow: ${printable(error.message, { keepLineBreaks: true })}\n`);
    const hint = error.hint ?? (isApiError(error) ? apiErrorHint(error) : undefined);
    if (hint !== undefined) stream.write(`  ${printable(hint, { keepLineBreaks: true })}\n`);
    if (error instanceof UsageError || (isApiError(error) && error.category === 'Authorization')) return 2;
    return exitCodeOf(error) ?? 1;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stream.write(`seatflow: unexpected error: ${printable(message, { keepLineBreaks: true })}\n`);
  return 1;
}

/** What to do when a call outside the queue (the pre-flight, a status read) fails; nothing was changed by it. */
function apiErrorHint(error: ApiError): string | undefined {
  switch (error.category) {
    case 'Authorization':
      return 'The service refused the access token: check SMARTSHEET_ACCESS_TOKEN (a System Admin API token) and that SMARTSHEET_API_BASE is your region (EU, Gov and AU have their own).';
    case 'ServiceUnavailable':
      if (error.unreachable) {
        return (
          'Nothing answers at that address, so nothing was changed. Check SMARTSHEET_API_BASE: the API of your region (https://api.smartsheet.com/2.0; ' +
          'EU https://api.smartsheet.eu/2.0, AU https://api.smartsheet.au/2.0, Gov https://api.smartsheetgov.com/2.0), or the URL `seatflow sim` printed; ' +
          'then that this machine reaches it (proxy, firewall, DNS). `seatflow doctor` checks the target, the token and Redis.'
        );
      }
      return error instanceof ServiceUnavailableError && error.rateLimited
        ? 'The service is rate limiting this token; nothing was changed. Wait a minute and run the command again.'
        : 'The service is unavailable (retried within retry.maxAttempts and retry.maxElapsedMs); nothing was changed. Try again later.';
    case 'Other':
      return 'The service answered something seatflow cannot read; nothing was changed. Check SMARTSHEET_API_BASE points at the API (it ends in /2.0).';
    default:
      return undefined;
  }
}

function exitCodeOf(error: SeatflowError): number | undefined {
  const code = (error as { exitCode?: unknown }).exitCode;
  return typeof code === 'number' ? code : undefined;
}
