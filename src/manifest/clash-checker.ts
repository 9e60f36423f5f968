import { ACTION_NAMES, userRefLabel, type Action, type ActionName, type UserRef } from './action.js';
import { HashIndex } from './hash-index.js';
import type { RowProblem } from './manifest-row.js';

/**
 * Whole-file checks across rows: the same row twice, two rows that contradict each other on one user (or column, or
 * webhook), and a transfer target that the same file removes or deactivates. Rows run in parallel, so any two rows
 * that touch the same thing in the same respect are refused rather than guessed at.
 *
 * Kept compact so a 1,000,000-row file can be validated in bounded memory: rows live in typed arrays, and what a row
 * touches is kept as a 53-bit hash of its key, not as a string. Two different keys sharing a hash would be reported
 * as a clash; at 1,000,000 distinct keys the chance that any pair does is about 1 in 18,000, at 10,000 about 1 in 10^8.
 */
export interface ClashChecker {
  /** Problems of `row` against the rows added before it. */
  add(row: number, line: number, action: Action): RowProblem[];
  /** Problems only visible once every row is known (transfer targets). */
  finish(): RowProblem[];
}

export interface ClashCheckerOptions {
  /** How to name the thing a row touches; defaults to its e-mail/id as written. The pre-flight passes resolved ids. */
  keyOf?: (action: Action) => string | undefined;
  /** The key of a remove row's transfer target, in the same space as keyOf. */
  transferKeyOf?: (action: Action) => string | undefined;
}

const SLOT = { lifecycle: 1, seat: 2, profile: 4, image: 8, alternate: 16, primary: 32, column: 64, webhook: 128 } as const;
const EVERYTHING = 0xff;
const SLOTS: Record<ActionName, number> = {
  add: EVERYTHING,
  remove: EVERYTHING,
  deactivate: SLOT.lifecycle,
  reactivate: SLOT.lifecycle,
  downgrade: SLOT.seat,
  upgrade: SLOT.seat,
  'remove-from-plan': SLOT.seat,
  update: SLOT.profile,
  'set-profile-image': SLOT.image,
  'add-alternate-email': SLOT.alternate,
  'delete-alternate-email': SLOT.alternate,
  'make-alternate-email-primary': SLOT.alternate | SLOT.primary,
  'add-column': SLOT.column,
  'update-column': SLOT.column,
  'delete-column': SLOT.column,
  'create-discussion': 0,
  'enable-webhook': SLOT.webhook,
  'disable-webhook': SLOT.webhook,
  'reset-webhook-secret': SLOT.webhook,
  'delete-webhook': SLOT.webhook,
};
const ACTION_INDEX = new Map<ActionName, number>(ACTION_NAMES.map((name, i) => [name, i]));

/** The thing a row touches, as written in the file: a user, a column of a sheet, a webhook, a sheet's discussions. */
export function writtenKeyOf(action: Action): string | undefined {
  if ('user' in action) return refKey(action.user);
  if ('webhookId' in action) return `w:${action.webhookId}`;
  if (action.action === 'create-discussion') return `d:${action.sheetId}`;
  if (action.action === 'add-column') return `c:${action.sheetId}:t:${action.title.toLowerCase()}`;
  return `c:${action.sheetId}:${action.columnId !== undefined ? `i:${action.columnId}` : `t:${action.columnTitle!.toLowerCase()}`}`;
}

function writtenTransferKeyOf(action: Action): string | undefined {
  return action.action === 'remove' && action.transferTo !== undefined ? refKey(action.transferTo) : undefined;
}

/** A user as written: by id when the row gives one (the id decides), else by e-mail. */
function refKey(ref: UserRef): string {
  return 'userId' in ref ? `u:${ref.userId}` : `e:${ref.email}`;
}

export function createClashChecker(options: ClashCheckerOptions = {}): ClashChecker {
  const keyOf = options.keyOf ?? writtenKeyOf;
  const transferKeyOf = options.transferKeyOf ?? writtenTransferKeyOf;
  const first = new HashIndex();
  let size = 0;
  let rows = new Int32Array(1024);
  let actions = new Uint8Array(1024);
  let hashes = new Uint32Array(1024);
  /** Hash of the alternate address, for the rare alternate-e-mail rows only. */
  const alternates = new Map<number, number>();
  /** Later rows of a key that already had one: rare, so plain arrays. */
  const more = new Map<number, number[]>();
  const transfers: { row: number; line: number; key: number }[] = [];
  /** Transfer target key → how the file names it (few distinct targets, many rows). */
  const transferLabels = new Map<number, string>();

  const grow = () => {
    const next = Math.ceil(rows.length * 1.5);
    const copy = <T extends Int32Array | Uint8Array | Uint32Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    rows = copy(rows, new Int32Array(next));
    actions = copy(actions, new Uint8Array(next));
    hashes = copy(hashes, new Uint32Array(next));
  };

  return {
    add(row, line, action) {
      const written = keyOf(action);
      const transferKey = transferKeyOf(action);
      // Only a remove row hands anything over (ClashCheckerOptions.transferKeyOf names its target).
      if (transferKey !== undefined && action.action === 'remove' && action.transferTo !== undefined) {
        const hashed = keyHash(transferKey);
        transfers.push({ row, line, key: hashed });
        if (!transferLabels.has(hashed)) transferLabels.set(hashed, userRefLabel(action.transferTo));
      }
      if (written === undefined) return [];
      const key = keyHash(written);
      if (size === rows.length) grow();
      const index = size;
      size += 1;
      rows[index] = row;
      actions[index] = ACTION_INDEX.get(action.action)!;
      hashes[index] = hashValue(0x811c9dc5, action);
      if ('alternateEmail' in action) alternates.set(index, hashText(0x811c9dc5, action.alternateEmail));
      const earliest = first.get(key);
      if (earliest === undefined) {
        first.set(key, index);
        return [];
      }
      const earlier = [earliest, ...(more.get(key) ?? [])];
      more.set(key, earlier.slice(1).concat(index));
      for (const other of earlier) {
        const problem = compare(other, index, row, line, action);
        if (problem !== undefined) return [problem];
      }
      return [];
    },
    finish() {
      const problems: RowProblem[] = [];
      for (const transfer of transfers) {
        const index = first.get(transfer.key);
        if (index === undefined) continue;
        for (const other of [index, ...(more.get(transfer.key) ?? [])]) {
          const name = ACTION_NAMES[actions[other]!]!;
          if (name === 'remove' || name === 'deactivate') {
            problems.push({
              row: transfer.row,
              line: transfer.line,
              field: 'transferTo',
              message: `transferTo ${transferLabels.get(transfer.key) ?? ''} is ${name === 'remove' ? 'removed' : 'deactivated'} by row ${rows[other]} of the same file`,
            });
            break;
          }
        }
      }
      return problems;
    },
  };

  function compare(other: number, index: number, row: number, line: number, action: Action): RowProblem | undefined {
    const otherName = ACTION_NAMES[actions[other]!]!;
    if (otherName === action.action && hashes[other] === hashes[index]) {
      return { row, line, message: `repeats row ${rows[other]} (duplicate row)` };
    }
    const mine = SLOTS[action.action];
    const theirs = SLOTS[otherName];
    const shared = mine & theirs;
    if (shared === 0) return undefined;
    // Two rows on different alternate addresses of one user do not clash; on the same address they do.
    if (shared === SLOT.alternate && alternates.get(other) !== alternates.get(index)) return undefined;
    return { row, line, message: `contradicts row ${rows[other]} (${otherName}): rows run in parallel, so put one of them in a later batch` };
  }
}

/** A 53-bit hash of a key: two independent 32-bit FNV-1a hashes, one of them cut to 21 bits. */
function keyHash(key: string): number {
  return hashText(0x811c9dc5, key) * 0x200000 + (hashText(0x01000193, key) & 0x1fffff);
}

/** FNV-1a over an action's keys and values, without building a string (this runs once per row of huge files). */
function hashValue(seed: number, value: unknown): number {
  if (value === null || typeof value !== 'object') return hashText(seed, `${typeof value}:${String(value)}`);
  let hash = seed;
  for (const key in value) {
    hash = hashText(hash, key);
    hash = hashValue(hash, (value as Record<string, unknown>)[key]);
  }
  return hash;
}

function hashText(seed: number, text: string): number {
  let hash = seed;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
