import type { FastifyRequest } from 'fastify';
import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';

export interface DiscussionUpload {
  discussion: unknown;
  file: { name: string; mimeType: string; bytes: number };
}

export const MAX_ATTACHMENT_BYTES = 30 * 1024 * 1024;

/** @fastify/multipart limits, given once at registration; every `request.parts()` call takes them. */
export const MULTIPART_LIMITS = { fileSize: MAX_ATTACHMENT_BYTES, parts: 10 } as const;

export function isMultipart(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');
}

/**
 * Reads a create-with-attachment body (docs/service.md#discussions): exactly a `discussion` JSON part and a `file` part.
 * Unnamed part 1125, duplicate 1126, missing 1127, too large 1128, any other name 1147.
 */
export async function readDiscussionUpload(request: FastifyRequest): Promise<DiscussionUpload> {
  let discussionText: string | undefined;
  let discussionValue: unknown;
  let file: DiscussionUpload['file'] | undefined;
  const seen = new Set<string>();
  for await (const part of request.parts()) {
    const name = part.fieldname;
    if (name === undefined || name === '') {
      if (part.type === 'file') part.file.resume();
      throw ApiError.badRequest(CODES.multipartUnnamedPart, 'A part of the multipart request has no name.');
    }
    if (seen.has(name)) {
      if (part.type === 'file') part.file.resume();
      throw ApiError.badRequest(CODES.multipartDuplicatePart, `Duplicate part name: ${name}.`);
    }
    seen.add(name);
    if (name === 'discussion') {
      if (part.type === 'file') discussionText = (await part.toBuffer()).toString('utf8');
      // @fastify/multipart already parses fields sent as application/json.
      else if (typeof part.value === 'object' && part.value !== null) [discussionText, discussionValue] = ['', part.value];
      else discussionText = String(part.value);
    } else if (name === 'file') {
      if (part.type !== 'file') {
        file = { name: 'file', mimeType: 'text/plain', bytes: Buffer.byteLength(String(part.value)) };
        continue;
      }
      let bytes = 0;
      for await (const chunk of part.file) bytes += (chunk as Buffer).length;
      if (part.file.truncated) throw ApiError.badRequest(CODES.multipartTooLarge, 'The file exceeds the 30 MB size limit.');
      file = { name: decodePartFileName(part.filename), mimeType: part.mimetype || 'application/octet-stream', bytes };
    } else {
      if (part.type === 'file') part.file.resume();
      throw ApiError.badRequest(CODES.multipartInvalidPart, `Invalid part name: ${name}.`);
    }
  }
  if (discussionText === undefined || file === undefined) {
    const missing = discussionText === undefined ? 'discussion' : 'file';
    throw ApiError.badRequest(CODES.multipartMissingPart, `Required part missing: ${missing}.`);
  }
  let discussion: unknown = discussionValue;
  if (discussion !== undefined) return { discussion, file };
  try {
    discussion = JSON.parse(discussionText);
  } catch {
    throw ApiError.badRequest(CODES.unparsable, 'Unable to parse the discussion part as JSON.');
  }
  return { discussion, file };
}

/** Clients URL-encode values in Content-Disposition (docs/service.md#discussions); a name that is not valid encoding is kept as sent. */
function decodePartFileName(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'file';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
