/**
 * A set of strings kept outside the JavaScript heap: the strings' bytes one after another in a Buffer, an open-addressing
 * table of typed arrays to find them. Exact (a string is compared in full, not only by its hash) and iterated in the
 * order strings were added, as a Set is.
 *
 * Why: the e-mails a million-row manifest names were a Set of a million strings, about 40 MB of heap that the garbage
 * collector counts as live, and V8 lets the heap grow to a multiple of what was live at its last collection before it
 * collects again: those 40 MB let RSS climb by 150 MB. Here they cost about 40 bytes each, off the heap.
 */
export class CompactStringSet implements Iterable<string> {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  /** Entry i's bytes are bytes[starts[i], starts[i + 1]); starts[size] is `used`. */
  private starts = new Float64Array(1024);
  private hashes = new Uint32Array(1024);
  /**
   * Entries whose string holds a surrogate code unit: kept as UTF-16 bytes, which keep any string exactly (UTF-8 would
   * turn a lone surrogate into U+FFFD, so two different strings could meet). Others as UTF-8, half the bytes.
   */
  private wide = new Uint8Array(1024);
  /** Slot → entry + 1; 0 is an empty slot. At most half full. */
  private slots = new Int32Array(4096);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `value`; false when it was there already. */
  add(value: string): boolean {
    const hash = hashOf(value);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let entry = this.slots[slot]!; entry !== 0; entry = this.slots[slot]!) {
      if (this.hashes[entry - 1] === hash && this.entry(entry - 1) === value) return false;
      slot = (slot + 1) & mask;
    }
    this.append(value, hash);
    this.slots[slot] = this.count;
    if (this.count * 2 > this.slots.length) this.rehash();
    return true;
  }

  has(value: string): boolean {
    const hash = hashOf(value);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask, entry = this.slots[slot]!; entry !== 0; slot = (slot + 1) & mask, entry = this.slots[slot]!) {
      if (this.hashes[entry - 1] === hash && this.entry(entry - 1) === value) return true;
    }
    return false;
  }

  /** Empties the set and lets its memory go. */
  clear(): void {
    this.bytes = Buffer.allocUnsafe(64 * 1024);
    this.used = 0;
    this.starts = new Float64Array(1024);
    this.hashes = new Uint32Array(1024);
    this.wide = new Uint8Array(1024);
    this.slots = new Int32Array(4096);
    this.count = 0;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.count; i += 1) yield this.entry(i);
  }

  private entry(index: number): string {
    return this.bytes.toString(this.wide[index] === 1 ? 'utf16le' : 'utf8', this.starts[index]!, this.starts[index + 1]!);
  }

  private append(value: string, hash: number): void {
    const wide = SURROGATE.test(value);
    const encoding = wide ? 'utf16le' : 'utf8';
    const length = Buffer.byteLength(value, encoding);
    if (this.used + length > this.bytes.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(larger, 0, 0, this.used);
      this.bytes = larger;
    }
    if (this.count + 2 > this.starts.length) {
      this.starts = grown(this.starts, new Float64Array(this.starts.length * 2));
      this.hashes = grown(this.hashes, new Uint32Array(this.hashes.length * 2));
      this.wide = grown(this.wide, new Uint8Array(this.wide.length * 2));
    }
    this.bytes.write(value, this.used, encoding);
    this.used += length;
    this.hashes[this.count] = hash;
    this.wide[this.count] = wide ? 1 : 0;
    this.count += 1;
    this.starts[this.count] = this.used;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let i = 0; i < this.count; i += 1) {
      let slot = this.hashes[i]! & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = i + 1;
    }
  }
}

const SURROGATE = /[\uD800-\uDFFF]/;

function grown<T extends Float64Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** FNV-1a over the UTF-16 code units, then mixed so that the low bits (the slot) depend on every character. */
function hashOf(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i += 1) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}
