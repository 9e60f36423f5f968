import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { MEGABYTE } from '../contract/upload-limits.js';
import { invalidArgument } from './error-factory.js';
import type { UploadSource } from './smartsheet-api.js';

/** An upload whose size is known and checked; `open()` gives a fresh stream or the bytes for each attempt. */
export interface PreparedUpload {
  size: number;
  fileName: string;
  contentType: string | undefined;
  open(): Buffer | AsyncIterable<Uint8Array>;
}

export { MEGABYTE, UPLOAD_LIMITS } from '../contract/upload-limits.js';

const TYPES_BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Checks the source exists, is not empty and is within `limitBytes`, before anything is sent. */
export async function prepareUpload(operation: string, what: string, source: UploadSource, limitBytes: number): Promise<PreparedUpload> {
  if (source === null || typeof source !== 'object') throw invalidArgument(operation, `${what} is required`);
  let prepared: PreparedUpload;
  if ('path' in source) {
    if (typeof source.path !== 'string' || source.path === '') throw invalidArgument(operation, `${what}.path is required`);
    const path = source.path;
    const info = await stat(path).catch((error: unknown) => {
      throw invalidArgument(operation, `${what} ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    });
    if (!info.isFile()) throw invalidArgument(operation, `${what} ${path} is not a file`);
    prepared = {
      size: info.size,
      fileName: source.fileName ?? basename(path),
      contentType: source.contentType ?? TYPES_BY_EXTENSION[extname(path).toLowerCase()] ?? (await sniffFile(path)),
      open: () => lazyStream(path),
    };
  } else {
    if (!(source.data instanceof Uint8Array)) throw invalidArgument(operation, `${what}.data must be bytes (a Buffer or Uint8Array)`);
    if (typeof source.fileName !== 'string' || source.fileName === '') throw invalidArgument(operation, `${what}.fileName is required`);
    const bytes = Buffer.from(source.data.buffer, source.data.byteOffset, source.data.byteLength);
    prepared = {
      size: bytes.byteLength,
      fileName: source.fileName,
      contentType: source.contentType ?? TYPES_BY_EXTENSION[extname(source.fileName).toLowerCase()] ?? sniff(bytes),
      open: () => bytes,
    };
  }
  if (prepared.size === 0) throw invalidArgument(operation, `${what} ${prepared.fileName} is empty`);
  if (prepared.size > limitBytes) {
    throw invalidArgument(
      operation,
      `${what} ${prepared.fileName} is ${prepared.size.toLocaleString('en-US')} bytes; the limit is ${limitBytes / MEGABYTE} MB (${limitBytes.toLocaleString('en-US')} bytes)`,
    );
  }
  return prepared;
}

/** The image types the service takes for profile images, told by their first bytes. */
function sniff(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x38) return 'image/gif';
  return undefined;
}

async function sniffFile(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    await handle.read(head, 0, 8, 0);
    return sniff(head);
  } finally {
    await handle.close();
  }
}

// Opened on the first read, so a call that fails before sending leaves no descriptor open.
async function* lazyStream(path: string): AsyncGenerator<Uint8Array> {
  yield* createReadStream(path) as AsyncIterable<Uint8Array>;
}
