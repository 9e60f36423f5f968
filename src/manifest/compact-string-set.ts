import { grownTo, PackedStrings } from './packed-strings.js';

/**
 * A set of strings kept outside the JavaScript heap: the strings packed in a Buffer (PackedStrings), an open-addressing
 * table of typed arrays to find them. Exact (a string is compared in full, not only by its hash) and iterated in the
 * order strings were added, as a Set is. Each string has a position (its order of addition), which CompactJsonMap
 * keeps its values by.
 *
 * Why: the e-mails a million-row manifest names were a Set of a million strings, about 40 MB of heap that the garbage
 * collector counts as live, and V8 lets the heap grow to a multiple of what was live at its last collection before it
 * collects again: those 40 MB let RSS climb by 150 MB. Here they cost about 40 bytes each, off the heap.
 */
export class CompactStringSet implements Iterable<string> {
  private strings = new PackedStrings();
  private hashes = new Uint32Array(1024);
  /** Slot → entry + 1; 0 is an empty slot. At most half full. */
  private slots = new Int32Array(4096);

  get size(): number {
    return this.strings.length;
  }

  /** Adds `value`; false when it was there already. */
  add(value: string): boolean {
    const hash = hashOf(value);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let entry = this.slots[slot]!; entry !== 0; entry = this.slots[slot]!) {
      if (this.hashes[entry - 1] === hash && this.strings.at(entry - 1) === value) return false;
      slot = (slot + 1) & mask;
    }
    const index = this.strings.push(value);
    if (index >= this.hashes.length) this.hashes = grownTo(this.hashes, new Uint32Array(this.hashes.length * 2));
    this.hashes[index] = hash;
    this.slots[slot] = index + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return true;
  }

  has(value: string): boolean {
    return this.indexOf(value) !== -1;
  }

  /** The position of `value` (the number of strings added before it), or -1 when it is not in the set. */
  indexOf(value: string): number {
    const hash = hashOf(value);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask, entry = this.slots[slot]!; entry !== 0; slot = (slot + 1) & mask, entry = this.slots[slot]!) {
      if (this.hashes[entry - 1] === hash && this.strings.at(entry - 1) === value) return entry - 1;
    }
    return -1;
  }

  /** The string at `index` (0 ≤ index < size), in the order of addition. */
  at(index: number): string {
    return this.strings.at(index);
  }

  /** Empties the set and lets its memory go. */
  clear(): void {
    this.strings = new PackedStrings();
    this.hashes = new Uint32Array(1024);
    this.slots = new Int32Array(4096);
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.size; i += 1) yield this.strings.at(i);
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let i = 0; i < this.size; i += 1) {
      let slot = this.hashes[i]! & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = i + 1;
    }
  }
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
