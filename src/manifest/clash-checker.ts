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
  /** Rows compared so far, one row against another (what the work grows with). */
  comparisons(): number;
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
  // Deactivation takes the Member seat and reactivation assigns one: they touch the seat as well.
  deactivate: SLOT.lifecycle | SLOT.seat,
  reactivate: SLOT.lifecycle | SLOT.seat,
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
  'update-webhook': SLOT.webhook,
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
  /** Key → index of its first row. */
  const first = new HashIndex();
  let size = 0;
  let rows = new Int32Array(1024);
  let actions = new Uint8Array(1024);
  let hashes = new Uint32Array(1024);
  /** Hash of the alternate address, for the rare alternate-e-mail rows only. */
  const alternates = new Map<number, number>();
  /**
   * Keys with more than one row get a record: its number here, and STATE_WIDTH cells of `earliest` from that number
   * on. Each new row of such a key is then checked against a fixed number of earliest rows (one per slot, one per
   * value, one per alternate address) instead of every earlier row: 100,000 discussions on one sheet were 5·10^9
   * comparisons, now 100,000.
   */
  const repeated = new HashIndex();
  let repeatedCount = 0;
  let earliest = new Int32Array(STATE_WIDTH * 64).fill(-1);
  /** Hash of (key, action, values) → the first such row, for repeated keys: a later one is a duplicate. */
  const firstOfValue = new HashIndex();
  /** Hash of (key, alternate address) → the first row of the key using that address. */
  const firstOfAlternate = new Map<number, number>();
  const transfers: { row: number; line: number; key: number }[] = [];
  /** Transfer target key → how the file names it (few distinct targets, many rows). */
  const transferLabels = new Map<number, string>();
  let compared = 0;

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

  /** The record of a key that just got its second row, holding its first row. */
  const openRecord = (key: number, firstIndex: number): number => {
    const record = repeatedCount;
    repeatedCount += 1;
    if (repeatedCount * STATE_WIDTH > earliest.length) {
      const larger = new Int32Array(earliest.length * 2).fill(-1);
      larger.set(earliest);
      earliest = larger;
    }
    repeated.set(key, record);
    remember(key, record, firstIndex);
    return record;
  };

  /** Makes `index` the earliest row of its key for whatever no earlier row of the key holds yet. */
  const remember = (key: number, record: number, index: number): void => {
    const base = record * STATE_WIDTH;
    const name = ACTION_NAMES[actions[index]!]!;
    const slots = SLOTS[name];
    for (let bit = 0; bit < SLOT_COUNT; bit += 1) {
      if ((slots & (1 << bit)) !== 0 && earliest[base + bit] === -1) earliest[base + bit] = index;
    }
    if ((name === 'remove' || name === 'deactivate') && earliest[base + ENDING] === -1) earliest[base + ENDING] = index;
    const value = valueKey(key, actions[index]!, hashes[index]!);
    if (firstOfValue.get(value) === undefined) firstOfValue.set(value, index);
    if ((slots & SLOT.alternate) !== 0) {
      const address = alternateKey(key, alternates.get(index));
      if (!firstOfAlternate.has(address)) firstOfAlternate.set(address, index);
    }
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
      const firstIndex = first.get(key);
      if (firstIndex === undefined) {
        first.set(key, index);
        return [];
      }
      const record = repeated.get(key) ?? openRecord(key, firstIndex);
      const problem = clashOf(key, record, index, row, line, action);
      remember(key, record, index);
      return problem === undefined ? [] : [problem];
    },
    finish() {
      const problems: RowProblem[] = [];
      for (const transfer of transfers) {
        const firstIndex = first.get(transfer.key);
        if (firstIndex === undefined) continue;
        const record = repeated.get(transfer.key);
        const ending = record === undefined ? firstIndex : earliest[record * STATE_WIDTH + ENDING]!;
        const name = ending === -1 ? undefined : ACTION_NAMES[actions[ending]!];
        if (name !== 'remove' && name !== 'deactivate') continue;
        problems.push({
          row: transfer.row,
          line: transfer.line,
          field: 'transferTo',
          message: `transferTo ${transferLabels.get(transfer.key) ?? ''} is ${name === 'remove' ? 'removed' : 'deactivated'} by row ${rows[ending]} of the same file`,
        });
      }
      return problems;
    },
    comparisons: () => compared,
  };

  /**
   * The earliest earlier row of the key that this one repeats or contradicts, as a problem. Two rows clash when they
   * share a slot, except two alternate-e-mail rows on different addresses; a repeat is the same action with the same
   * values. When the earliest row does both, it is reported as repeated.
   */
  function clashOf(key: number, record: number, index: number, row: number, line: number, action: Action): RowProblem | undefined {
    const base = record * STATE_WIDTH;
    const mine = SLOTS[action.action];
    let repeat = firstOfValue.get(valueKey(key, actions[index]!, hashes[index]!)) ?? -1;
    compared += 1;
    let contradiction = -1;
    const consider = (other: number): void => {
      compared += 1;
      if (other !== -1 && (contradiction === -1 || other < contradiction)) contradiction = other;
    };
    for (let bit = 0; bit < SLOT_COUNT; bit += 1) {
      if ((mine & (1 << bit)) !== 0 && 1 << bit !== SLOT.alternate) consider(earliest[base + bit]!);
    }
    // Rows that share only the alternate slot clash on the same address; sharing more, they clashed above.
    if ((mine & SLOT.alternate) !== 0) consider(firstOfAlternate.get(alternateKey(key, alternates.get(index))) ?? -1);
    if (repeat !== -1 && contradiction !== -1 && contradiction < repeat) repeat = -1;
    if (repeat !== -1) return { row, line, message: `repeats row ${rows[repeat]} (duplicate row)` };
    if (contradiction === -1) return undefined;
    const other = ACTION_NAMES[actions[contradiction]!]!;
    const why = seatFollowsLifecycle(other, action.action) ? '; deactivation and reactivation change the seat too' : '';
    return { row, line, message: `contradicts row ${rows[contradiction]} (${other}): rows run in parallel, so put one of them in a later batch${why}` };
  }
}

/** Two rows that clash only because a lifecycle change moves the seat, which the file's writer may not know. */
function seatFollowsLifecycle(a: ActionName, b: ActionName): boolean {
  return (SLOTS[a] & SLOTS[b]) === SLOT.seat && ((SLOTS[a] | SLOTS[b]) & SLOT.lifecycle) !== 0;
}

/** Cells of a repeated key's record: the earliest row per slot, then the earliest remove or deactivate row. */
const SLOT_COUNT = 8;
const ENDING = SLOT_COUNT;
const STATE_WIDTH = SLOT_COUNT + 1;

/** A repeated key's row with this action and these values, as one 53-bit hash. */
function valueKey(key: number, action: number, values: number): number {
  return keyHash(`${key}:${action}:${values}`);
}

/** A repeated key's alternate-e-mail rows on one address (or on none: add and remove hold the slot too). */
function alternateKey(key: number, address: number | undefined): number {
  return keyHash(`${key}:@${address ?? 'none'}`);
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
