/** The items of `source` in arrays of at most `size`, in order: to read or look up a chunk at a time. */
export async function* chunksOf<T>(source: Iterable<T> | AsyncIterable<T>, size: number): AsyncGenerator<T[], void, undefined> {
  let chunk: T[] = [];
  for await (const item of source) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
