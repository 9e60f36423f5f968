import { actionSchema, type ActionName } from './action.js';

/** Flat fields a row may carry besides the action's own: the user is given as `email` and/or `userId`. */
const FLAT_USER_FIELDS = ['email', 'userId'] as const;

/** Fields each action accepts, in the flat (manifest) spelling. */
export const ACTION_FIELDS: ReadonlyMap<ActionName, ReadonlySet<string>> = new Map(
  actionSchema.options.map((option) => {
    const keys = Object.keys(option.shape).filter((key) => key !== 'action');
    const flat = keys.flatMap((key) => (key === 'user' ? [...FLAT_USER_FIELDS] : [key]));
    return [option.shape.action.value, new Set(flat)] as const;
  }),
);

/**
 * Every field a manifest row may name, in a stable order: `action`, the user (`user` nested in JSON, `email`,
 * `userId`), then each action's fields. Their header spellings are in columns/input-vocabularies.ts.
 */
export const MANIFEST_FIELD_NAMES: readonly string[] = [...new Set(['action', 'user', ...FLAT_USER_FIELDS, ...[...ACTION_FIELDS.values()].flatMap((set) => [...set])])];
