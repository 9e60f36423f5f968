import { UsageError } from './seatflow-error.js';

/** Where a server of seatflow tried to listen, and the flag that chooses its port. */
export interface ListenAttempt {
  /** What was starting, e.g. `the control API` (the start of the message). */
  what: string;
  host: string;
  port: number;
  /** The flag that sets the port, e.g. `--port` or `--metrics-port`. */
  flag: string;
}

/**
 * A socket that could not listen, said as what to do: the port is taken (another seatflow, or another program), the
 * port needs privileges, or the address is not this machine's. Any other error is returned as it is.
 */
export function listenRefusal(error: unknown, attempt: ListenAttempt): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const address = `${attempt.host.includes(':') ? `[${attempt.host}]` : attempt.host}:${attempt.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new UsageError(
        `${attempt.what} cannot listen on ${address}: the port is in use`,
        `Another program listens there (perhaps another seatflow): stop it, or choose another port with ${attempt.flag} N (${attempt.flag} 0 picks a free one).`,
      );
    case 'EACCES':
      return new UsageError(`${attempt.what} cannot listen on ${address}: permission denied`, `Ports under 1024 need privileges: choose one of 1024 or more with ${attempt.flag} N.`);
    case 'EADDRNOTAVAIL':
      return new UsageError(`${attempt.what} cannot listen on ${address}: ${attempt.host} is not an address of this machine`, 'Choose one of its addresses with --host (127.0.0.1 for this machine only, 0.0.0.0 for every interface).');
    default:
      return error;
  }
}
