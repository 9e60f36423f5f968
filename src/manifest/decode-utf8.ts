import type { Readable } from 'node:stream';
import { ManifestFileError } from './manifest-file-error.js';

const REPLACEMENT = '\uFFFD';
const ENCODED_REPLACEMENT = Buffer.from(REPLACEMENT, 'utf8');

/**
 * Decodes a byte stream as UTF-8 text, chunk by chunk, and refuses bytes that are not UTF-8 with the line they sit on
 * (spreadsheet programs often save CSV as Windows-1252, which would silently garble names and e-mails).
 */
export async function* decodeUtf8(source: Readable | AsyncIterable<Buffer | string> | Iterable<Buffer | string>, onBytes?: (chunk: Buffer) => void): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  let lines = 1;
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    onBytes?.(chunk);
    const text = decoder.decode(chunk, { stream: true });
    checkDecoded(text, chunk, lines);
    lines += countNewlines(text);
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  checkDecoded(rest, Buffer.alloc(0), lines);
  if (rest !== '') yield rest;
}

function checkDecoded(text: string, chunk: Buffer, firstLine: number): void {
  const at = text.indexOf(REPLACEMENT);
  // A genuine U+FFFD in the file is encoded as EF BF BD; a replacement without those bytes marks invalid input.
  if (at === -1 || chunk.includes(ENCODED_REPLACEMENT)) return;
  const line = firstLine + countNewlines(text.slice(0, at));
  throw new ManifestFileError(
    `line ${line} contains bytes that are not UTF-8 text`,
    line,
    'Save the file as UTF-8 (in Excel: "CSV UTF-8 (Comma delimited)") and try again.',
  );
}

export function countNewlines(text: string): number {
  let count = 0;
  let at = text.indexOf('\n');
  while (at !== -1) {
    count += 1;
    at = text.indexOf('\n', at + 1);
  }
  return count;
}
