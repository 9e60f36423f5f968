import { randomBytes } from 'node:crypto';
import type { PreparedUpload } from './upload-source.js';
import type { RawBody } from './transport.js';

/**
 * A `multipart/form-data` body of one JSON part and one file part (docs/service.md#discussions), written by hand rather than with
 * FormData: the JSON part must carry `Content-Type: application/json` and no filename, which FormData cannot express,
 * and the file streams from disk with a known Content-Length.
 */
export function buildMultipartBody(jsonPartName: string, json: unknown, file: PreparedUpload): RawBody {
  const boundary = `----seatflow${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${jsonPartName}"\r\n` +
      'Content-Type: application/json\r\n\r\n' +
      `${JSON.stringify(json)}\r\n` +
      `--${boundary}\r\n` +
      // Values in Content-Disposition are URL-encoded (docs/service.md#discussions).
      `Content-Disposition: form-data; name="file"; filename="${encodeURIComponent(file.fileName)}"\r\n` +
      `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: head.byteLength + file.size + tail.byteLength,
    body: concat(head, file, tail),
  };
}

// The file is opened on the first read, so a call that fails before sending leaves no descriptor open.
async function* concat(head: Buffer, file: PreparedUpload, tail: Buffer): AsyncGenerator<Uint8Array> {
  yield head;
  const content = file.open();
  if (Buffer.isBuffer(content)) yield content;
  else yield* content;
  yield tail;
}
