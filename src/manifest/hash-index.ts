/**
 * A map from 53-bit hashes to row indexes on typed arrays (open addressing, linear probing). A Map of a million
 * number keys costs ~60 MB plus rehash copies; this costs 12 bytes per slot at half load.
 */
export class HashIndex {
  private keys = new Float64Array(1 << 12);
  private values = new Int32Array(1 << 12).fill(-1);
  private count = 0;

  get(key: number): number | undefined {
    const mask = this.keys.length - 1;
    for (let slot = this.slotOf(key, mask); ; slot = (slot + 1) & mask) {
      const value = this.values[slot]!;
      if (value === -1) return undefined;
      if (this.keys[slot] === key) return value;
    }
  }

  /** Sets key → value (value ≥ 0). */
  set(key: number, value: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    for (let slot = this.slotOf(key, mask); ; slot = (slot + 1) & mask) {
      if (this.values[slot] === -1) {
        this.keys[slot] = key;
        this.values[slot] = value;
        this.count += 1;
        return;
      }
      if (this.keys[slot] === key) {
        this.values[slot] = value;
        return;
      }
    }
  }

  private slotOf(key: number, mask: number): number {
    // The low 32 bits of the key are well mixed (an FNV hash), so they pick the slot directly.
    return (key % 0x100000000) & mask;
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.values = new Int32Array(values.length * 2).fill(-1);
    this.count = 0;
    for (let slot = 0; slot < keys.length; slot += 1) {
      if (values[slot] !== -1) this.set(keys[slot]!, values[slot]!);
    }
  }
}
