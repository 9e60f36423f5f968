import { nextTurn, turnEvery } from '../core/event-loop-turn.js';
import { USER_ACTIONS, type ActionName } from '../manifest/action.js';
import { CompactStringSet } from '../manifest/compact-string-set.js';
import type { ManifestRow } from '../manifest/manifest-row.js';

/** What a manifest's rows ask the pre-flight to read, gathered in one pass over them. */
export interface RowSurvey {
  /**
   * E-mails to resolve: users named by e-mail, transfer targets, addresses about to become alternates. Off the heap: a
   * million of them as a Set let the heap, and RSS, grow by 150 MB before the collector ran.
   */
  emails: CompactStringSet;
  /** User ids to resolve. */
  ids: Set<number>;
  /** Rows per action, in the order each action first appears. */
  actions: Map<ActionName, number>;
  /** Some row names a webhook. */
  webhooks: boolean;
}

/**
 * One pass over the rows for everything the service must be asked before any row is classified. The readers that
 * need a second look (seats, alternates, columns, group ownership) are run only when `actions` says some row needs
 * them, so that a million deactivations are read twice (here and when classified), not once per reader.
 */
export async function surveyRows(rows: Iterable<Pick<ManifestRow, 'action'>>): Promise<RowSurvey> {
  const survey: RowSurvey = { emails: new CompactStringSet(), ids: new Set(), actions: new Map(), webhooks: false };
  const addRef = (ref: { email?: string; userId?: number }) => {
    if (ref.userId !== undefined) survey.ids.add(ref.userId);
    else if (ref.email !== undefined) survey.emails.add(ref.email);
  };
  const turn = turnEvery();
  for (const { action } of rows) {
    if (turn()) await nextTurn();
    survey.actions.set(action.action, (survey.actions.get(action.action) ?? 0) + 1);
    if ('user' in action) addRef(action.user);
    if (action.action === 'remove' && action.transferTo !== undefined) addRef(action.transferTo);
    // An address about to become someone's alternate must not already be a primary address.
    if (action.action === 'add-alternate-email') survey.emails.add(action.alternateEmail);
    if ('webhookId' in action) survey.webhooks = true;
  }
  return survey;
}

/** Whether some row of the survey has one of these actions. */
export function surveyHas(survey: RowSurvey, actions: Iterable<string>): boolean {
  for (const action of actions) if (survey.actions.has(action as ActionName)) return true;
  return false;
}

/** Rows that administer users (not columns, discussions or webhooks), and their actions in order of appearance. */
export function userAdministration(survey: RowSurvey): { rows: number; actions: ActionName[] } {
  const actions = [...survey.actions.keys()].filter((action) => USER_ACTIONS.has(action));
  return { rows: actions.reduce((sum, action) => sum + survey.actions.get(action)!, 0), actions };
}
