import { UsageError } from '../core/seatflow-error.js';

/** The manifest as a whole cannot be read (not UTF-8, unbalanced quote, no header, not JSON…). */
export class ManifestFileError extends UsageError {
  /** 1-based source line where reading stopped; 0 when the whole file is at fault. */
  readonly line: number;

  constructor(message: string, line: number, hint?: string) {
    super(message, hint);
    this.line = line;
  }
}
