import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../../contract/index.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from './api-error.js';

/** Writes an error body with a refId (docs/service.md#errors). */
export function sendError(reply: FastifyReply, error: ApiError, refId: string): FastifyReply {
  const body: ErrorBody = { errorCode: error.errorCode, message: error.message, refId };
  if (error.detail !== undefined) body.detail = error.detail;
  return reply.code(error.status).header('content-type', 'application/json;charset=UTF-8').send(body);
}

/** Maps fastify's and @fastify/multipart's own errors onto the service's status/errorCode pairs (docs/service.md#error-codes). */
export function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const code = (error as FastifyError).code ?? '';
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError(415, CODES.mediaTypeNotSupported, 'Invalid Content-Type header. Media type not supported.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return ApiError.badRequest(CODES.multipartTooLarge, 'The request body exceeds the size limit.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return ApiError.badRequest(CODES.multipartInvalidPart, 'The multipart request has too many parts.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_PROTO_VIOLATION':
      return ApiError.badRequest(CODES.unparsable, 'Unable to parse request.');
    default:
      break;
  }
  if (error instanceof SyntaxError) return ApiError.badRequest(CODES.unparsable, 'Unable to parse request.');
  // busboy and stream errors of a broken multipart body.
  if (/multipart|boundary|Unexpected end of form|Malformed part header/i.test(error.message)) {
    return ApiError.badRequest(1145, `Invalid multipart request: ${error.message}`);
  }
  const status = (error as FastifyError).statusCode;
  if (status !== undefined && status >= 400 && status < 500) return ApiError.badRequest(CODES.unparsable, error.message);
  return new ApiError(500, CODES.unexpected, 'An unexpected error has occurred.');
}

export function registerErrorHandler(app: FastifyInstance, nextRefId: () => string): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500 && !(error instanceof ApiError)) request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, apiError, nextRefId());
  });
}
