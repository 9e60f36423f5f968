import { show } from '../show-value.js';
import { ManifestFileError } from '../manifest-file-error.js';
import { editDistance } from './edit-distance.js';
import { shapeOf, type ValueShape } from './value-shapes.js';

/**
 * The header rules every input file follows (manifests, leavers files, a policy's source-of-truth files, and any
 * input kind added later): a kind registers its fields and their aliases, and gets the same matching, the same
 * near-miss refusal, the same refusal of ignored columns that hold dates or e-mails, and the same way to say which
 * column means what. See docs/manifests.md, "Column names".
 */

/** One field of an input kind. */
export interface FieldDefinition<F extends string> {
  /** The canonical name, as docs and messages write it. */
  name: F;
  /** Other header spellings people and HR systems use; matched folded like the name. */
  aliases?: readonly string[];
  /** The option that names this field's column when its header is none of the above, e.g. `--leave-date-column`. */
  option?: string;
}

/** An input kind: its fields and what it does with a column it does not use. */
export interface InputKind<F extends string> {
  /** How messages name a file of this kind, e.g. "leavers file". */
  name: string;
  fields: readonly FieldDefinition<F>[];
  /**
   * Ignored columns holding these values are refused, not ignored: each says what the column could mean here and how
   * to say so. A shape absent here is ignored with a note.
   */
  refuseIgnored: Partial<Record<ValueShape, (column: string) => string>>;
  /** How a person says that a column means nothing here, e.g. `pass --ignore-column "Notes"`. */
  ignoreHint: (column: string) => string;
  /** The option (or key) that lists such columns, for messages about it, e.g. `--ignore-column`. */
  ignoreOption: string;
}

/** What the person said about the file's columns, besides the headers themselves. */
export interface ColumnChoices<F extends string> {
  /** The column of a field, by its header as written (`--leave-date-column "Leaving Date"`). */
  columns?: Partial<Record<F, string>>;
  /** Columns the caller reads by their own name (a policy's `seatFromColumn`): neither a field nor ignored. */
  read?: readonly string[];
  /** Columns that mean nothing here (`--ignore-column`): never read, never refused. */
  ignore?: readonly string[];
}

/** A header as read: the field of each column, and a check for the columns nobody reads. */
export interface HeaderReading<F extends string> {
  /** The field of each column, in header order; undefined for a column no field uses. */
  fields: readonly (F | undefined)[];
  /** Headers of the columns ignored (for a note), in file order; columns said to be ignored are not repeated. */
  ignored: readonly string[];
  /** Refuses (ManifestFileError) when a cell of an ignored column looks like a date or an e-mail the kind refuses. */
  checkIgnored(cellAt: (index: number) => unknown, line: number): void;
}

export interface ColumnVocabulary<F extends string> {
  readonly kind: InputKind<F>;
  /** The field a header names, or undefined. */
  fieldOf(header: string): F | undefined;
  /** The field a header nearly names (one edit, two for long names): a likely typo, never silently ignored. */
  nearMiss(header: string): F | undefined;
  /**
   * Reads a header row (or a JSON object's keys); throws ManifestFileError for a header that cannot be meant, and for
   * a choice naming a column the header lacks. `partial`: the header is one JSON object's keys, and other objects of
   * the file may hold the columns a choice names (checkChoices checked them against the whole file).
   */
  readHeader(headers: readonly string[], line: number, choices?: ColumnChoices<F>, partial?: boolean): HeaderReading<F>;
  /** Throws ManifestFileError when a choice names a column none of these headers is. */
  checkChoices(headers: readonly string[], line: number, choices?: ColumnChoices<F>): void;
}

/** Header cells match after folding case and dropping everything but letters and digits: `E-Mail`, `e_mail`, ` Email `. */
export function foldName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Edits a header may be from a name and still count as a typo of it. Short names get none: `Team` is not `text`, and
 * `Last Name` (8 letters) is two edits from `last date` without being a misspelling of it.
 */
function nearMissEdits(folded: string): number {
  if (folded.length < 5) return 0;
  return folded.length < 10 ? 1 : 2;
}

export function createColumnVocabulary<F extends string>(kind: InputKind<F>): ColumnVocabulary<F> {
  const byFolded = new Map<string, F>();
  for (const field of kind.fields) {
    for (const spelling of [field.name, ...(field.aliases ?? [])]) {
      const folded = foldName(spelling);
      const earlier = byFolded.get(folded);
      if (earlier !== undefined && earlier !== field.name) throw new Error(`${kind.name}: "${spelling}" names both ${earlier} and ${field.name}`);
      byFolded.set(folded, field.name);
    }
  }
  const optionOf = new Map(kind.fields.map((field) => [field.name, field.option]));

  const fieldOf = (header: string): F | undefined => byFolded.get(foldName(header));

  const nearMiss = (header: string): F | undefined => {
    const folded = foldName(header);
    const allowed = nearMissEdits(folded);
    if (allowed === 0) return undefined;
    let best: F | undefined;
    let bestDistance = allowed + 1;
    for (const [spelling, field] of byFolded) {
      const distance = Math.abs(spelling.length - folded.length) > allowed ? allowed + 1 : editDistance(folded, spelling);
      if (distance < bestDistance) {
        best = field;
        bestDistance = distance;
      }
    }
    return best;
  };

  const checkChoices = (headers: readonly string[], line: number, choices: ColumnChoices<F> = {}): void => {
    const named: [string | undefined, string][] = [
      ...(Object.entries(choices.columns ?? {}) as [F, string | undefined][]).map(([field, column]): [string | undefined, string] => [column, optionOf.get(field) ?? `the column of ${field}`]),
      ...(choices.ignore ?? []).map((column): [string, string] => [column, kind.ignoreOption]),
    ];
    for (const [column, option] of named) {
      if (column === undefined || headers.some((header) => foldName(header) === foldName(column))) continue;
      throw new ManifestFileError(`${option} "${column}": the ${kind.name} has no such column (its columns: ${headers.map((h) => `"${h}"`).join(', ')})`, line, 'Name a column of the header as it is written.');
    }
  };

  const readHeader = (headers: readonly string[], line: number, choices: ColumnChoices<F> = {}, partial = false): HeaderReading<F> => {
    const label = (index: number) => (headers[index]?.trim() === '' ? `column ${index + 1} (no header)` : `column "${headers[index]}"`);
    if (!partial) checkChoices(headers, line, choices);
    const indexOf = (named: string) => headers.findIndex((header) => foldName(header) === foldName(named));
    const chosen = new Map<number, F>();
    for (const [field, named] of Object.entries(choices.columns ?? {}) as [F, string | undefined][]) {
      const index = named === undefined ? -1 : indexOf(named);
      if (index !== -1) chosen.set(index, field);
    }
    const skipped = new Set((choices.ignore ?? []).map(indexOf).filter((index) => index !== -1));
    const read = new Set((choices.read ?? []).map(foldName));

    const fields: (F | undefined)[] = [];
    const ignored: number[] = [];
    const seen = new Map<F, number>();
    headers.forEach((header, index) => {
      if (skipped.has(index) || read.has(foldName(header))) {
        fields.push(undefined);
        return;
      }
      const field = chosen.get(index) ?? fieldOf(header);
      if (field === undefined) {
        const guess = header.trim() === '' ? undefined : nearMiss(header);
        if (guess !== undefined) {
          throw new ManifestFileError(
            `${label(index)} is not a field of a ${kind.name}: did you mean "${guess}"?`,
            line,
            `Rename the column to ${guess}; if it means something else, ${kind.ignoreHint(header)}.`,
          );
        }
        fields.push(undefined);
        ignored.push(index);
        return;
      }
      const earlier = seen.get(field);
      if (earlier !== undefined) {
        throw new ManifestFileError(`${label(earlier)} and ${label(index)} both mean ${field}`, line, `Keep one of them, or ${kind.ignoreHint(header)}.`);
      }
      seen.set(field, index);
      fields.push(field);
    });

    const watched = Object.keys(kind.refuseIgnored).length > 0 ? ignored : [];
    return {
      fields,
      ignored: ignored.map((index) => headers[index] ?? ''),
      checkIgnored(cellAt, rowLine) {
        for (const index of watched) {
          for (const text of textsOf(cellAt(index))) {
            const shape = shapeOf(text);
            const refusal = shape === undefined ? undefined : kind.refuseIgnored[shape];
            if (shape === undefined || refusal === undefined) continue;
            const header = headers[index] ?? '';
            throw new ManifestFileError(
              `${label(index)} holds ${shape === 'date' ? 'dates' : 'e-mail addresses'} (${show(text)}${rowLine > 0 ? ` on line ${rowLine}` : ''}), but it is not a field of a ${kind.name}: seatflow will not guess what it means`,
              rowLine,
              `${refusal(header)}; if it means nothing here, ${kind.ignoreHint(header)}.`,
            );
          }
        }
      },
    };
  };

  return { kind, fieldOf, nearMiss, readHeader, checkChoices };
}

/** The texts of a cell: a CSV cell, a JSON value, or each item of a JSON array. */
function textsOf(cell: unknown): string[] {
  const items = Array.isArray(cell) ? (cell as unknown[]) : [cell];
  return items.filter((item) => typeof item === 'string' || typeof item === 'number').map(String);
}
