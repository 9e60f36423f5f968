import { UsageError } from '../core/seatflow-error.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import { formatProblems } from './format-plan.js';

/**
 * A manifest refused whole: the file cannot be read, or (without --skip-invalid) some rows are invalid. Every
 * problem is listed; nothing was done; the CLI exits 2.
 */
export class ManifestRefusedError extends UsageError {
  readonly problems: readonly RowProblem[];

  constructor(problems: readonly RowProblem[], invalidRows: number, hint?: string) {
    const what = invalidRows === 0 ? 'the file cannot be used' : `${invalidRows} invalid row${invalidRows === 1 ? '' : 's'}`;
    super(
      `manifest refused (${what}), nothing was done:\n${formatProblems(problems)}`,
      hint ?? 'Fix the rows above, or pass --skip-invalid to go on with the valid rows only.',
    );
    this.problems = problems;
  }
}
