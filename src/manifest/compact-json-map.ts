import { CompactStringSet } from './compact-string-set.js';
import { grownTo, PackedStrings } from './packed-strings.js';

/**
 * A map from strings to JSON data kept outside the JavaScript heap: the keys in a CompactStringSet, each value as its
 * JSON text in PackedStrings. A value read back is a copy, parsed again (as JSON sees it: a property holding
 * `undefined` is not kept), so change one by setting it again. Iterated in the order keys were first set, as a Map is.
 *
 * Why: what a sync compares (the live organization by e-mail, the accepted export by employee id) was a Map of
 * 100,000 small objects each, about 300 bytes of heap apiece that the garbage collector counts as live and lets the heap
 * grow by a multiple of; here an entry costs its key and its JSON, about 150 bytes, off the heap.
 */
export class CompactJsonMap<T> implements ReadonlyMap<string, T> {
  private readonly keySet = new CompactStringSet();
  private readonly json = new PackedStrings();
  /** Key position → position of its value's JSON (the last one set). */
  private valueAt = new Int32Array(1024);

  /** A map of these entries (later entries of a key win, as with a Map). */
  static of<T>(entries: Iterable<readonly [string, T]>): CompactJsonMap<T> {
    const map = new CompactJsonMap<T>();
    for (const [key, value] of entries) map.set(key, value);
    return map;
  }

  get size(): number {
    return this.keySet.size;
  }

  set(key: string, value: T): this {
    const text = JSON.stringify(value);
    const known = this.keySet.indexOf(key);
    if (known !== -1) {
      this.valueAt[known] = this.json.push(text);
      return this;
    }
    this.keySet.add(key);
    const index = this.keySet.size - 1;
    if (index >= this.valueAt.length) this.valueAt = grownTo(this.valueAt, new Int32Array(this.valueAt.length * 2));
    this.valueAt[index] = this.json.push(text);
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
    return JSON.parse(this.json.at(this.valueAt[index]!)) as T;
  }
}
