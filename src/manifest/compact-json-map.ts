import { CompactStringSet } from './compact-string-set.js';
import { grownTo } from './packed-strings.js';
import { RowStore } from './row-store.js';

/**
 * A map from strings to JSON data, kept compact: the keys in a CompactStringSet (off the heap), the values in a
 * RowStore (their JSON, compressed a chunk at a time). Made for maps that are written, then read in order: iterating
 * decodes each chunk once, while a value read at random decodes its chunk (about a millisecond). A value read back is a
 * copy (as JSON sees it: a property holding `undefined` is not kept), so change one by setting it again. Iterated in
 * the order keys were first set, as a Map is.
 *
 * Why: what a sync keeps of an export to accept was a Map of 100,000 small objects, about 300 bytes of heap each that
 * the garbage collector counts as live and lets the heap grow by a multiple of; here an entry costs its key (about 40
 * bytes, off the heap) and its compressed JSON (a few tens of bytes).
 */
export class CompactJsonMap<T> implements ReadonlyMap<string, T> {
  private readonly keySet = new CompactStringSet();
  private readonly json = new RowStore<T>();
  /** Key position → position of its value in `json` (the last one set). */
  private valueAt = new Int32Array(1024);

  get size(): number {
    return this.keySet.size;
  }

  set(key: string, value: T): this {
    const at = this.json.length;
    this.json.append(value);
    const known = this.keySet.indexOf(key);
    if (known !== -1) {
      this.valueAt[known] = at;
      return this;
    }
    this.keySet.add(key);
    const index = this.keySet.size - 1;
    if (index >= this.valueAt.length) this.valueAt = grownTo(this.valueAt, new Int32Array(this.valueAt.length * 2));
    this.valueAt[index] = at;
    return this;
  }

  get(key: string): T | undefined {
    const index = this.keySet.indexOf(key);
    return index === -1 ? undefined : this.valueOf(index);
  }

  has(key: string): boolean {
    return this.keySet.has(key);
  }

  forEach(callback: (value: T, key: string, map: ReadonlyMap<string, T>) => void, thisArg?: unknown): void {
    for (const [key, value] of this) callback.call(thisArg, value, key, this);
  }

  *entries(): MapIterator<[string, T]> {
    for (let i = 0; i < this.size; i += 1) yield [this.keySet.at(i), this.valueOf(i)];
  }

  *keys(): MapIterator<string> {
    for (let i = 0; i < this.size; i += 1) yield this.keySet.at(i);
  }

  *values(): MapIterator<T> {
    for (let i = 0; i < this.size; i += 1) yield this.valueOf(i);
  }

  [Symbol.iterator](): MapIterator<[string, T]> {
    return this.entries();
  }

  private valueOf(index: number): T {
    return this.json.at(this.valueAt[index]!)!;
  }
}
