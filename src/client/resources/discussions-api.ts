import { discussionCreateSchema, discussionSchema } from '../../contract/index.js';
import { optionalPositiveInt, pathOf, requireId, requireValid } from '../arguments.js';
import { readBare, readDone, readIndexResult, readResultObject } from '../envelope-readers.js';
import { buildMultipartBody } from '../multipart-body.js';
import { iterateOffsetPages } from '../paging.js';
import { prepareUpload, UPLOAD_LIMITS } from '../upload-source.js';
import type { Transport } from '../transport.js';
import type { DiscussionsApi } from '../smartsheet-api.js';

/** Attaching a file is one of the "resource-intensive" calls (docs/service.md#rate-limits). */
const UPLOAD_COST = 10;

const readDiscussionPage = readIndexResult(discussionSchema);

export function createDiscussionsApi(transport: Transport): DiscussionsApi {
  const api: DiscussionsApi = {
    async create(sheetId, discussion, options = {}) {
      const operation = 'discussions.create';
      const id = requireId(operation, 'sheetId', sheetId);
      const json = requireValid(operation, 'discussion', discussionCreateSchema, discussion);
      return transport.send(
        { operation, method: 'POST', path: pathOf('sheets', id, 'discussions'), json, signal: options.signal },
        readResultObject(discussionSchema),
      );
    },

    async createWithAttachment(sheetId, discussion, file, options = {}) {
      const operation = 'discussions.createWithAttachment';
      const id = requireId(operation, 'sheetId', sheetId);
      const json = requireValid(operation, 'discussion', discussionCreateSchema, discussion);
      const upload = await prepareUpload(operation, 'file', file, UPLOAD_LIMITS.attachment);
      return transport.send(
        {
          operation,
          method: 'POST',
          path: pathOf('sheets', id, 'discussions'),
          cost: UPLOAD_COST,
          raw: () => buildMultipartBody('discussion', json, upload),
          signal: options.signal,
        },
        readResultObject(discussionSchema),
      );
    },

    async get(sheetId, discussionId, options = {}) {
      const operation = 'discussions.get';
      const path = pathOf('sheets', requireId(operation, 'sheetId', sheetId), 'discussions', requireId(operation, 'discussionId', discussionId));
      return transport.send({ operation, method: 'GET', path, signal: options.signal }, readBare(discussionSchema));
    },

    async listPage(sheetId, options = {}) {
      const operation = 'discussions.list';
      const id = requireId(operation, 'sheetId', sheetId);
      return transport.send(
        {
          operation,
          method: 'GET',
          path: pathOf('sheets', id, 'discussions'),
          query: {
            include: options.include,
            page: optionalPositiveInt(operation, 'page', options.page),
            pageSize: optionalPositiveInt(operation, 'pageSize', options.pageSize),
            includeAll: options.includeAll,
          },
          signal: options.signal,
        },
        readDiscussionPage,
      );
    },

    list(sheetId, options = {}) {
      return iterateOffsetPages((page) => api.listPage(sheetId, { ...options, page }), options);
    },

    async delete(sheetId, discussionId, options = {}) {
      const operation = 'discussions.delete';
      const path = pathOf('sheets', requireId(operation, 'sheetId', sheetId), 'discussions', requireId(operation, 'discussionId', discussionId));
      return transport.send({ operation, method: 'DELETE', path, signal: options.signal }, readDone);
    },
  };
  return api;
}
