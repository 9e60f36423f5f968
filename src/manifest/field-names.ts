import { actionSchema, type ActionName } from './action.js';

/**
 * The manifest's field vocabulary. Header cells are matched after folding case and dropping spaces, underscores,
 * hyphens and dots, so `E-mail`, `email_address` and ` Email ` all mean `email`.
 */

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

const CANONICAL_FIELDS = new Set<string>(['action', 'user', ...FLAT_USER_FIELDS, ...[...ACTION_FIELDS.values()].flatMap((set) => [...set])]);

const ALIASES: Record<string, string> = {
  emailaddress: 'email',
  mail: 'email',
  primaryemail: 'email',
  useremail: 'email',
  workemail: 'email',
  id: 'userId',
  user: 'user',
  givenname: 'firstName',
  first: 'firstName',
  surname: 'lastName',
  familyname: 'lastName',
  last: 'lastName',
  transfertoemail: 'transferTo',
  transfertouserid: 'transferTo',
  transfertoid: 'transferTo',
  seat: 'seatType',
  plan: 'planId',
  altemail: 'alternateEmail',
  alternate: 'alternateEmail',
  alternateemailaddress: 'alternateEmail',
  newemail: 'alternateEmail',
  profileimage: 'image',
  imagepath: 'image',
  imagefile: 'image',
  columntype: 'type',
  column: 'columnTitle',
  text: 'comment',
  commenttext: 'comment',
  attachment: 'file',
  filepath: 'file',
  operation: 'action',
  op: 'action',
};

const BY_FOLDED = new Map<string, string>([
  ...[...CANONICAL_FIELDS].map((name) => [foldName(name), name] as const),
  ...Object.entries(ALIASES),
]);

export function foldName(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_.-]+/g, '');
}

/** The canonical field a header cell names, or undefined for a column seatflow does not use. */
export function canonicalField(header: string): string | undefined {
  return BY_FOLDED.get(foldName(header));
}

export function isKnownField(name: string): boolean {
  return CANONICAL_FIELDS.has(name);
}
