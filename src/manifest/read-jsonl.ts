import { parseJsonLossless } from './parse-json-lossless.js';
import { recordFromObject } from './read-json.js';
import type { RawRecord } from './raw-record.js';

/** Longest line accepted, in characters: a manifest row is a few hundred; anything near this is a broken file. */
const MAX_LINE_CHARS = 65_536;

/** Reads JSON Lines, streaming: one JSON object per line, blank lines skipped, each bad line its own problem. */
export async function* readJsonl(text: AsyncIterable<string>): AsyncGenerator<RawRecord> {
  let pending = '';
  let line = 0;
  let row = 0;
  const handle = (content: string): RawRecord | undefined => {
    line += 1;
    const trimmed = line === 1 ? content.replace(/^\uFEFF/, '').trim() : content.trim();
    if (trimmed === '') return undefined;
    row += 1;
    if (trimmed.length > MAX_LINE_CHARS) {
      return { kind: 'unreadable', problem: { row, line, message: `line is longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters` } };
    }
    try {
      return recordFromObject(parseJsonLossless(trimmed), row, line);
    } catch (error) {
      return { kind: 'unreadable', problem: { row, line, message: `not a JSON object: ${(error as Error).message}` } };
    }
  };
  for await (const chunk of text) {
    pending += chunk;
    let at = pending.indexOf('\n');
    let from = 0;
    while (at !== -1) {
      const record = handle(pending.slice(from, at));
      if (record !== undefined) yield record;
      from = at + 1;
      at = pending.indexOf('\n', from);
    }
    pending = pending.slice(from);
  }
  const last = handle(pending);
  if (last !== undefined) yield last;
}
