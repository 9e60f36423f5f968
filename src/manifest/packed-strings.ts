/**
 * A list of strings kept outside the JavaScript heap: their bytes one after another in one Buffer, where each starts
 * in a typed array. Append-only; read back by position. The storage under CompactStringSet and CompactJsonMap.
 *
 * Why off the heap: a hundred thousand strings held as strings are live heap the garbage collector counts, and V8
 * lets the heap grow to a multiple of what was live before it collects again; here they cost their bytes and 9 more.
 */
export class PackedStrings {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  /** Entry i's bytes are bytes[starts[i], starts[i + 1]); starts[length] is `used`. */
  private starts = new Float64Array(1024);
  /**
   * Entries whose string holds a surrogate code unit: kept as UTF-16 bytes, which keep any string exactly (UTF-8 would
   * turn a lone surrogate into U+FFFD, so two different strings could meet). Others as UTF-8, half the bytes.
   */
  private wide = new Uint8Array(1024);
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** Appends `value`; returns its position. */
  push(value: string): number {
    const wide = SURROGATE.test(value);
    const encoding = wide ? 'utf16le' : 'utf8';
    const length = Buffer.byteLength(value, encoding);
    if (this.used + length > this.bytes.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(larger, 0, 0, this.used);
      this.bytes = larger;
    }
    if (this.count + 2 > this.starts.length) {
      this.starts = grownTo(this.starts, new Float64Array(this.starts.length * 2));
      this.wide = grownTo(this.wide, new Uint8Array(this.wide.length * 2));
    }
    this.bytes.write(value, this.used, encoding);
    this.used += length;
    this.wide[this.count] = wide ? 1 : 0;
    this.count += 1;
    this.starts[this.count] = this.used;
    return this.count - 1;
  }

  /** The string at `index` (0 ≤ index < length). */
  at(index: number): string {
    return this.bytes.toString(this.wide[index] === 1 ? 'utf16le' : 'utf8', this.starts[index]!, this.starts[index + 1]!);
  }
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** `to` (a larger typed array) holding `from`'s values first. */
export function grownTo<T extends Float64Array | Uint32Array | Uint8Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
