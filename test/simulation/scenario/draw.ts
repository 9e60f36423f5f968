import { createPrng, type Prng } from '../../../src/server/sim/prng.js';

/**
 * The generator's dice: the reference server's seeded generator (mulberry32, src/server/sim/prng.ts) with the few
 * draws a scenario needs. Each stream is named (`seed:actions`, `seed:faults`), so adding an operator action leaves
 * the faults a seed draws as they were.
 */
export interface Draw extends Prng {
  chance(probability: number): boolean;
  /** An integer from `min` to `max`, both included. */
  between(min: number, max: number): number;
  /** `count` distinct items (fewer when there are fewer), in drawn order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** How many times something with `mean` occurrences happens in one period (Poisson). */
  occurrences(mean: number): number;
}

export function createDraw(seed: number, stream: string): Draw {
  const prng = createPrng(`${seed}:${stream}`);
  return {
    ...prng,
    chance: (probability) => prng.next() < probability,
    between: (min, max) => min + prng.int(max - min + 1),
    sample(items, count) {
      const pool = [...items];
      const out: (typeof items)[number][] = [];
      while (out.length < count && pool.length > 0) out.push(pool.splice(prng.int(pool.length), 1)[0]!);
      return out;
    },
    occurrences(mean) {
      // Knuth's method: fine for the small means of a simulated day.
      const limit = Math.exp(-mean);
      let count = 0;
      let product = prng.next();
      while (product > limit) {
        count += 1;
        product *= prng.next();
      }
      return count;
    },
  };
}
