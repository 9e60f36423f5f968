import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/**
 * The rows of a manifest or a plan, in order, as their consumers read them: a plain array (small plans built in
 * memory, tests) or a RowStore (what reading a manifest and the pre-flight build, of any size).
 */
export interface RowList<T> extends Iterable<T> {
  readonly length: number;
  /** The row at this position (negative counts from the end, as Array#at); undefined past either end. */
  at(index: number): T | undefined;
}

/** A RowStore as plain data, for a structured clone (the control API's parse thread hands manifests back so). */
export interface StoredRows {
  chunks: Uint8Array[];
  /** Rows in each sealed chunk. */
  counts: number[];
  /** JSON of the rows not yet in a chunk. */
  pending: string[];
}

export interface RowStoreOptions {
  /** JSON characters per compressed chunk. Default 128 Ki: a random read decodes one chunk (about a millisecond). */
  chunkChars?: number;
}

const DEFAULT_CHUNK_CHARS = 128 * 1024;
// Brotli at its fastest: plan rows repeat their keys and words, so even quality 1 keeps a tenth to a quarter of the
// JSON, and it compresses faster than deflate's fastest level.
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };

/**
 * Rows kept compact: each row as its JSON text, a chunk of rows at a time compressed (brotli) into one Buffer. A
 * million plan rows as objects held about 350 bytes each live, plus what the garbage collector keeps spare; here they
 * cost their compressed JSON, a few tens of bytes. Reading one decodes it again, so a row read back is a copy: a
 * store is appended to, never changed in place.
 *
 * Rows must be plain JSON data (what the plan already is: it travels to Redis and to the jobs as JSON), and a row read
 * back equals the row appended as JSON sees it (a property holding `undefined` is not kept).
 */
export class RowStore<T> implements RowList<T> {
  private readonly chunkChars: number;
  private chunks: Buffer[] = [];
  /** Index of the first row of each sealed chunk, then the number of sealed rows. */
  private starts: number[] = [0];
  private pending: string[] = [];
  private pendingChars = 0;
  /** The chunk read last, decoded: reading rows in order decodes each chunk once. (#: not part of what it holds.) */
  #decoded: { chunk: number; lines: string[] } | undefined;

  constructor(options: RowStoreOptions = {}) {
    this.chunkChars = options.chunkChars ?? DEFAULT_CHUNK_CHARS;
  }

  /** A store of these rows. */
  static of<T>(rows: Iterable<T>, options?: RowStoreOptions): RowStore<T> {
    const store = new RowStore<T>(options);
    for (const row of rows) store.append(row);
    return store;
  }

  /** The store `toStored` described (on another thread). */
  static fromStored<T>(stored: StoredRows, options?: RowStoreOptions): RowStore<T> {
    const store = new RowStore<T>(options);
    for (let i = 0; i < stored.chunks.length; i += 1) {
      const chunk = stored.chunks[i]!;
      store.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      store.starts.push(store.starts.at(-1)! + stored.counts[i]!);
    }
    for (const line of stored.pending) store.appendJson(line);
    return store;
  }

  get length(): number {
    return this.starts.at(-1)! + this.pending.length;
  }

  append(row: T): void {
    this.appendJson(JSON.stringify(row));
  }

  at(index: number): T | undefined {
    const line = this.lineAt(index < 0 ? this.length + index : index);
    return line === undefined ? undefined : (JSON.parse(line) as T);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const line of this.lines()) yield JSON.parse(line) as T;
  }

  /** Each row's JSON text, in order, as `JSON.stringify` wrote it (a hash of the rows needs no objects). */
  *lines(): Generator<string> {
    for (let chunk = 0; chunk < this.chunks.length; chunk += 1) yield* this.decode(chunk);
    for (let i = 0; i < this.pending.length; i += 1) yield this.pending[i]!;
  }

  /** JSON.stringify writes a store as the array of its rows. */
  toJSON(): T[] {
    return [...this];
  }

  toStored(): StoredRows {
    return { chunks: [...this.chunks], counts: this.chunks.map((_, i) => this.starts[i + 1]! - this.starts[i]!), pending: [...this.pending] };
  }

  private appendJson(line: string): void {
    this.pending.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars >= this.chunkChars) this.seal();
  }

  private seal(): void {
    // JSON text holds no raw line break (JSON.stringify escapes them in strings), so one separates rows.
    this.chunks.push(brotliCompressSync(Buffer.from(this.pending.join('\n'), 'utf8'), BROTLI));
    this.starts.push(this.starts.at(-1)! + this.pending.length);
    this.pending = [];
    this.pendingChars = 0;
  }

  private lineAt(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    const sealed = this.starts.at(-1)!;
    if (index >= sealed) return this.pending[index - sealed];
    // The last chunk whose first row is at or before index.
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return this.decode(low)[index - this.starts[low]!];
  }

  private decode(chunk: number): string[] {
    if (this.#decoded?.chunk !== chunk) this.#decoded = { chunk, lines: brotliDecompressSync(this.chunks[chunk]!).toString('utf8').split('\n') };
    return this.#decoded.lines;
  }
}

/** The first `count` rows, as an array (a page of a plan shown to a person). */
export function firstRows<T>(rows: Iterable<T>, count: number): T[] {
  const first: T[] = [];
  if (count <= 0) return first;
  for (const row of rows) {
    first.push(row);
    if (first.length >= count) break;
  }
  return first;
}
