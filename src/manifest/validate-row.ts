import type { z } from 'zod';
import { ACTION_NAMES, actionSchema, emailSchema, isActionName, manifestIdSchema, USER_ACTIONS, type Action } from './action.js';
import { describeIssue } from './describe-issue.js';
import { emailRefusal } from './email-refusal.js';
import { ACTION_FIELDS } from './field-names.js';
import type { RowProblem } from './manifest-row.js';
import { suggest } from './suggest.js';

/** What every row of one manifest shares. */
export interface RowContext {
  /** From `--action`: the action of rows that name none. */
  defaultAction?: string;
  /** From a JSON manifest's `defaults`: values for fields a row leaves empty. */
  defaults?: Record<string, unknown>;
}

export type RowResult = { ok: true; action: Action } | { ok: false; actionName: string; problems: Omit<RowProblem, 'row' | 'line'>[] };

/**
 * Turns one row's fields (canonical names, raw values) into a typed action, or into every problem it has. Empty
 * values count as absent, so a mixed CSV may leave the columns of other actions blank.
 */
export function validateRow(fields: Record<string, unknown>, context: RowContext): RowResult {
  const values: Record<string, unknown> = {};
  for (const source of [context.defaults, fields]) {
    if (source === undefined) continue;
    for (const [key, value] of Object.entries(source)) {
      if (value === undefined || value === null || value === '') continue;
      values[key] = value;
    }
  }
  const problems: Omit<RowProblem, 'row' | 'line'>[] = [];
  const rawAction = values.action ?? context.defaultAction;
  if (typeof rawAction !== 'string' || rawAction.trim() === '') {
    problems.push({ field: 'action', message: 'no action: give each row an action, or pass --action for the whole file' });
    return { ok: false, actionName: '', problems };
  }
  const actionName = foldAction(rawAction);
  if (context.defaultAction !== undefined && values.action !== undefined && actionName !== foldAction(context.defaultAction)) {
    // Which one was meant cannot be known: refuse the mix rather than silently prefer one.
    problems.push({
      field: 'action',
      message: `the row names its own action "${rawAction.trim()}", and --action ${context.defaultAction} was given: --action is only for files whose rows name no action; drop one of them`,
    });
    return { ok: false, actionName, problems };
  }
  if (!isActionName(actionName)) {
    const guess = suggest(actionName, ACTION_NAMES);
    const hint = guess === undefined ? `actions are: ${ACTION_NAMES.join(', ')}` : `did you mean "${guess}"?`;
    problems.push({ field: 'action', message: `unknown action "${rawAction.trim()}": ${hint}` });
    return { ok: false, actionName: rawAction.trim(), problems };
  }

  const allowed = ACTION_FIELDS.get(actionName)!;
  const input: Record<string, unknown> = { action: actionName };
  for (const [key, value] of Object.entries(values)) {
    if (key === 'action' || key === 'user') continue;
    if (!allowed.has(key)) {
      // A value in a column that the action does not use is most likely a mistake; a default from JSON is not.
      if (fields[key] !== undefined && fields[key] !== '' && fields[key] !== null) {
        problems.push({ field: key, message: `${key} does not apply to ${actionName}` });
      }
      continue;
    }
    input[key] = value;
  }
  if (USER_ACTIONS.has(actionName)) {
    const user = userRefInput(values, actionName, problems);
    delete input.email;
    delete input.userId;
    if (user !== undefined) input.user = user;
  }
  if (input.transferTo !== undefined) {
    const target = transferToInput(input.transferTo, problems);
    if (target === undefined) delete input.transferTo;
    else input.transferTo = target;
  }
  if (problems.length > 0) return { ok: false, actionName, problems };

  const parsed = actionSchema.safeParse(input);
  if (parsed.success) return { ok: true, action: parsed.data };
  return { ok: false, actionName, problems: parsed.error.issues.map((issue) => describeIssue(issue, actionName, input)) };
}

function userRefInput(values: Record<string, unknown>, actionName: string, problems: Omit<RowProblem, 'row' | 'line'>[]): unknown {
  if (typeof values.user === 'object' && values.user !== null) return values.user;
  const ref: Record<string, unknown> = {};
  if (values.email !== undefined) {
    const email = emailSchema.safeParse(values.email);
    if (email.success) ref.email = email.data;
    else problems.push({ field: 'email', message: emailRefusal(values.email) });
  }
  if (values.userId !== undefined) {
    const id = manifestIdSchema.safeParse(values.userId);
    if (id.success) ref.userId = id.data;
    else problems.push({ field: 'userId', message: firstMessage(id.error) });
  }
  if (actionName === 'add' && values.userId !== undefined && values.email === undefined) {
    problems.push({ field: 'email', message: 'add needs the new user\'s email (a userId cannot be invited)' });
    return undefined;
  }
  if (values.email === undefined && values.userId === undefined) {
    problems.push({ field: 'email', message: `name the user with email or userId` });
    return undefined;
  }
  return ref;
}

function transferToInput(value: unknown, problems: Omit<RowProblem, 'row' | 'line'>[]): unknown {
  if (typeof value === 'object' && value !== null) return value;
  const text = String(value).trim();
  if (text.includes('@')) {
    const email = emailSchema.safeParse(text);
    if (email.success) return { email: email.data };
    problems.push({ field: 'transferTo', message: emailRefusal(text) });
    return undefined;
  }
  const id = manifestIdSchema.safeParse(value);
  if (id.success) return { userId: id.data };
  problems.push({ field: 'transferTo', message: `transferTo must be an e-mail address or a user id; ${firstMessage(id.error)}` });
  return undefined;
}

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'invalid value';
}

function foldAction(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_]+/g, '-');
}
