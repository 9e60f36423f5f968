import type { FastifyInstance } from 'fastify';
import type { ManifestFormat } from '../manifest/manifest-format.js';
import { CONTROL_ERROR_CODES, ControlError } from './control-error.js';

/**
 * Media types a manifest may be sent as, and the format each names. Not text/plain (nor form types): a web page can
 * send those cross-site without asking the server first, so accepting them would let any page submit a batch.
 */
export const MANIFEST_MEDIA_TYPES: Readonly<Record<string, ManifestFormat>> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/json': 'json',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/x-jsonlines': 'jsonl',
};

/**
 * Takes manifest bodies as raw bytes: the manifest readers parse and validate them (with line numbers), and the
 * batch id is the hash of these exact bytes, so that the CLI and the API find the same batch for the same file.
 */
export function registerManifestBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(Object.keys(MANIFEST_MEDIA_TYPES), { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

/** The manifest format named by a Content-Type header, or a 415 naming the accepted types. */
export function manifestFormatOf(contentType: string | undefined): ManifestFormat {
  const mediaType = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const format = MANIFEST_MEDIA_TYPES[mediaType];
  if (format !== undefined) return format;
  throw new ControlError(415, CONTROL_ERROR_CODES.unsupportedMediaType, mediaType === '' ? 'the request has no Content-Type' : `a manifest cannot be sent as ${mediaType}`, {
    hint: 'Send the manifest as the body with Content-Type text/csv, application/json or application/x-ndjson.',
  });
}

/** The body as bytes, refusing an empty one. */
export function manifestBytesOf(body: unknown): Buffer {
  if (Buffer.isBuffer(body) && body.length > 0) return body;
  throw new ControlError(400, CONTROL_ERROR_CODES.badRequest, 'the request has no manifest in its body', {
    hint: 'Send the manifest file as the body, e.g. curl --data-binary @offboarding.csv -H "Content-Type: text/csv".',
  });
}
