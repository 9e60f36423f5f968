import { toControlError } from '../to-control-error.js';

/** A form's post refused: the status its page answers with, what went wrong (each bad row), and what was sent. */
export interface FormRefusal<V> {
  status: number;
  error: { message: string; problems?: string[] };
  values?: V;
}

/**
 * What a refused upload (a bad file, a bad option, a busy service, a plan that changed) says on its form: the first
 * line of the error, optionally its hint, and each bad row.
 */
export function formRefusal(error: unknown, options: { withHint: boolean }): Omit<FormRefusal<never>, 'values'> {
  const answer = toControlError(error, false);
  const problems = (answer.details?.problems as Array<{ row: number; field?: string; message: string }> | undefined)?.map(
    (problem) => `row ${problem.row}${problem.field === undefined ? '' : ` ${problem.field}`}: ${problem.message}`,
  );
  const first = answer.message.split('\n', 1)[0] ?? answer.message;
  const message = options.withHint && answer.hint !== undefined ? `${first} ${answer.hint}` : first;
  return { status: answer.statusCode, error: { message, ...(problems === undefined ? {} : { problems }) } };
}
