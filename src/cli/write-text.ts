import { once } from 'node:events';
import { RowStore } from '../manifest/row-store.js';

/** Chunks handed to the stream at once: large enough to keep write calls few, small enough to hold nothing big. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The text of `JSON.stringify(document, null, 2)`, as chunks: each top-level array (or RowStore, which JSON writes as
 * the array of its rows) is written element by element, so a plan of a million rows is never one string of hundreds
 * of megabytes (nor its copy in the output buffer), nor a million objects at once.
 */
export function* jsonChunks(document: Record<string, unknown>): Generator<string> {
  const entries = Object.entries(document).filter(([, value]) => value !== undefined && typeof value !== 'function');
  if (entries.length === 0) {
    yield '{}';
    return;
  }
  yield '{';
  for (let i = 0; i < entries.length; i += 1) {
    const [key, value] = entries[i]!;
    const prefix = `${i === 0 ? '' : ','}\n  ${JSON.stringify(key)}: `;
    const elements: (Iterable<unknown> & { length: number }) | undefined = Array.isArray(value) || value instanceof RowStore ? (value as unknown[] | RowStore<unknown>) : undefined;
    if (elements === undefined || elements.length === 0) {
      yield prefix + indent(JSON.stringify(value, null, 2), '  ');
      continue;
    }
    yield `${prefix}[`;
    let first = true;
    // An array's holes are read as undefined and written as null, as JSON.stringify writes them.
    for (const element of elements) {
      yield `${first ? '' : ','}\n    ${indent(JSON.stringify(element, null, 2) ?? 'null', '    ')}`;
      first = false;
    }
    yield '\n  ]';
  }
  yield '\n}';
}

/** Writes `document` as `JSON.stringify(document, null, 2)` and a line break would, waiting whenever the stream is full. */
export async function writeJson(stream: NodeJS.WritableStream, document: Record<string, unknown>): Promise<void> {
  await writeChunks(stream, (function* () {
    yield* jsonChunks(document);
    yield '\n';
  })());
}

/** Writes each line and a line break, waiting whenever the stream is full. */
export async function writeLines(stream: NodeJS.WritableStream, lines: Iterable<string>): Promise<void> {
  await writeChunks(stream, (function* () {
    for (const line of lines) yield `${line}\n`;
  })());
}

/** Writes text chunks gathered into pieces of about CHUNK_CHARS, waiting whenever the stream is full. */
async function writeChunks(stream: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  let pending = '';
  for (const chunk of chunks) {
    pending += chunk;
    if (pending.length < CHUNK_CHARS) continue;
    const text = pending;
    pending = '';
    if (!stream.write(text)) await once(stream, 'drain');
  }
  if (pending !== '' && !stream.write(pending)) await once(stream, 'drain');
}

/** JSON text never holds a raw line break inside a string, so every line break is a layout one. */
function indent(json: string, by: string): string {
  return json.includes('\n') ? json.replaceAll('\n', `\n${by}`) : json;
}
