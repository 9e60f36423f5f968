/**
 * The base of every error seatflow raises on purpose. It carries a stable `code` and a retry hint; the code that
 * raises it classifies, and the queue alone decides whether to retry (one owner per kind of retry).
 */
export interface SeatflowErrorOptions {
  /** Whether trying the same thing again later may succeed. Default false. */
  retryable?: boolean;
  /** How long to wait before trying again, when the source said so (e.g. Retry-After). */
  retryAfterMs?: number;
  /** What a person should do about it; printed under the message by the CLI. */
  hint?: string;
  cause?: unknown;
}

export class SeatflowError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: SeatflowErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.hint = options.hint;
  }
}

/** A user's input (flag, config file, manifest) was refused; the CLI exits 2. */
export class UsageError extends SeatflowError {
  constructor(message: string, hint?: string) {
    super('USAGE', message, hint === undefined ? {} : { hint });
  }
}
