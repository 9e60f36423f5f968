import type { z } from 'zod';
import { emailRefusal } from './email-refusal.js';
import type { RowProblem } from './manifest-row.js';
import { show } from './show-value.js';

/** What a field takes, in words, for values of the wrong kind (`index: true`, `options: 5`). */
const EXPECTED: Readonly<Record<string, string>> = {
  index: 'a whole number ≥ 0',
  width: 'a whole number ≥ 0',
  options: 'a list: a JSON array of text, or a|b|c in a CSV cell',
  ...Object.fromEntries(['userId', 'sheetId', 'columnId', 'webhookId', 'planId'].map((id) => [id, 'an id (a positive whole number)'])),
  ...Object.fromEntries(
    ['admin', 'licensedSheetCreator', 'groupAdmin', 'resourceViewer', 'sendEmail', 'allowInviteAccountAdmin', 'transferSheets', 'removeFromSharing', 'removeAdminStatus', 'hidden', 'locked', 'validation']
      .map((flag) => [flag, 'true or false (yes/no, 1/0)']),
  ),
};

/** zod's own messages start like this; ours (from refinements and transforms) say what is wrong in their own words. */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Expected)\b/;

/**
 * One zod issue of a row, as a person reads it: the value given (as written) and what the field takes, never the
 * field's name again (it is printed before the message) and never zod's bare "Invalid input".
 */
export function describeIssue(issue: z.core.$ZodIssue, actionName: string, input: Record<string, unknown>): Omit<RowProblem, 'row' | 'line'> {
  const fieldPath = issue.path.map(String);
  const field = fieldPath[0] === 'user' ? (fieldPath[1] ?? 'email') : fieldPath.join('.');
  const value = valueAt(input, issue.path);
  if (value === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) return { field, message: `missing: ${actionName} needs it` };
  return { field, message: explain(issue, field, value) };
}

function explain(issue: z.core.$ZodIssue, field: string, value: unknown): string {
  const shown = show(value);
  if (!ZOD_DEFAULT.test(issue.message)) {
    // Our transforms name the value themselves, and refinements are about the row: only other checks get it here.
    const own = withoutField(issue.message, field);
    return issue.code === 'custom' || value === undefined ? own : `${shown}: ${own}`;
  }
  switch (issue.code) {
    case 'invalid_value':
      return `${shown} is not one of ${issue.values.map(String).join(', ')}`;
    case 'too_big':
      return `${shown} is too long: at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'too_small':
      return issue.origin === 'string' ? `${shown} is too short: at least ${String(issue.minimum)} characters` : `${shown} is too small: at least ${String(issue.minimum)}`;
    case 'invalid_format':
      return issue.format === 'email' ? emailRefusal(value) : `${shown} is not in the expected format (${issue.format})`;
    default:
      return `${shown} is not valid here: expected ${EXPECTED[field] ?? 'text'}`;
  }
}

/** The value the row gave at an issue's path. */
function valueAt(input: Record<string, unknown>, at: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of at) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function withoutField(message: string, field: string): string {
  return message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
}
