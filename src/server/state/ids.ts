import { createPrng } from '../sim/prng.js';

/** Smallest and largest 16-digit ids that stay exact in a JS number (docs/service.md#identifiers-and-dates). */
const MIN_ID = 1_000_000_000_000_000;
const MAX_ID = Number.MAX_SAFE_INTEGER;

export interface IdGenerator {
  /** A fresh 16-digit id below 2^53, never handed out before by this generator. */
  next(): number;
  /** Marks an id as taken (fixed ids of the demo organization or a fixture). */
  reserve(id: number): void;
}

/** Deterministic ids: the same seed gives the same sequence, so the demo organization has the same ids every start. */
export function createIdGenerator(seed: number | string = 'seatflow'): IdGenerator {
  const prng = createPrng(seed);
  const taken = new Set<number>();
  return {
    next() {
      for (;;) {
        // Two draws give 2^53 of spread; one draw (2^32) would cluster visibly.
        const hi = prng.int(2 ** 21);
        const lo = prng.int(2 ** 32);
        const id = MIN_ID + ((hi * 2 ** 32 + lo) % (MAX_ID - MIN_ID));
        if (!taken.has(id)) {
          taken.add(id);
          return id;
        }
      }
    },
    reserve(id) {
      taken.add(id);
    },
  };
}
