import type { FastifyInstance } from 'fastify';
import { ApiError, SERVER_ERROR_CODES as CODES } from './api-error.js';

export interface BodyLimits {
  /** JSON bodies. */
  jsonBytes: number;
  /** Raw profile images (the real service allows 1 MB). */
  imageBytes: number;
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif'] as const;

/**
 * Body parsing, lenient where official SDKs differ: an empty JSON body is no body (the Java SDK sends
 * `Content-Type: application/json` on bodiless calls), and malformed JSON is 400 1008. Other media types than JSON,
 * images, octet-stream and multipart are refused by fastify and mapped to 415 1124 by the error handler.
 */
export function registerContentParsers(app: FastifyInstance, limits: BodyLimits): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'text/json'],
    { parseAs: 'string', bodyLimit: limits.jsonBytes },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(ApiError.badRequest(CODES.unparsable, 'Unable to parse request. The following error occurred: malformed JSON.'), undefined);
      }
    },
  );
  app.addContentTypeParser(
    [...IMAGE_TYPES, 'application/octet-stream'],
    // One byte above the limit, so the route can tell "too large" from "exactly the limit".
    { parseAs: 'buffer', bodyLimit: limits.imageBytes + 1 },
    (_request, body, done) => done(null, body),
  );
}
