import type { ColumnUpdate, UserUpdate } from '../src/contract/index.js';
import type { ActionOf } from '../src/manifest/action.js';
import { definedOnly } from './job-support.js';

/** The profile fields a row sets (add and update share them); the rest are left as they are. */
export function userProfileFields(action: ActionOf<'add' | 'update'>): UserUpdate {
  return definedOnly({
    firstName: action.firstName,
    lastName: action.lastName,
    admin: action.admin,
    licensedSheetCreator: action.licensedSheetCreator,
    groupAdmin: action.groupAdmin,
    resourceViewer: action.resourceViewer,
  });
}

/** The column fields a row sets (add and update share them; for update, `title` renames and `index` moves). */
export function columnFields(action: ActionOf<'add-column' | 'update-column'>): ColumnUpdate {
  return definedOnly({
    title: action.title,
    type: action.type,
    index: action.index,
    options: action.options,
    symbol: action.symbol,
    systemColumnType: action.systemColumnType,
    width: action.width,
    hidden: action.hidden,
    locked: action.locked,
    validation: action.validation,
    description: action.description,
    formula: action.formula,
  });
}
