/**
 * Runs `task` for each item, at most `concurrency` at a time, in the items' order of start; the first failure rejects
 * (tasks already started finish on their own). For per-item reads that the shared request budget paces anyway.
 */
export async function forEachLimited<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
