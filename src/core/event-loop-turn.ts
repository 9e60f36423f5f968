import { setImmediate } from 'node:timers/promises';

/**
 * For long loops over a plan's rows: true once every `every` calls, when the loop should `await nextTurn()`. A loop
 * that never lets the event loop turn holds a server's other requests, and it holds V8's garbage collection too (its
 * marking tasks run between turns): a million rows classified in one synchronous run grew RSS by 150 MB of garbage.
 */
export function turnEvery(every = 2048): () => boolean {
  let count = 0;
  return () => {
    count += 1;
    return count % every === 0;
  };
}

/** Lets the event loop run what waits (I/O, timers, the collector's tasks), then goes on. */
export function nextTurn(): Promise<void> {
  return setImmediate();
}
