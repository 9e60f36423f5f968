import { z } from 'zod';
import { alternateEmailCreateSchema, alternateEmailSchema } from '../../contract/index.js';
import { optionalPositiveInt, pathOf, requireId, requireNonEmptyList, requireValid } from '../arguments.js';
import { readBare, readDone, readIndexResult, readResultList, readResultObject } from '../envelope-readers.js';
import { iterateOffsetPages } from '../paging.js';
import type { Transport } from '../transport.js';
import type { AlternateEmailsApi } from '../smartsheet-api.js';

const readAlternateEmailPage = readIndexResult(alternateEmailSchema);

export function createAlternateEmailsApi(transport: Transport): AlternateEmailsApi {
  const api: AlternateEmailsApi = {
    async add(userId, emails, options = {}) {
      const operation = 'alternateEmails.add';
      const id = requireId(operation, 'userId', userId);
      const list = requireNonEmptyList(operation, 'emails', emails);
      // A JSON array in, a list out (docs/service.md#alternate-e-mails).
      const json = requireValid(operation, 'emails', z.array(alternateEmailCreateSchema), list.map((email) => ({ email })));
      return transport.send(
        { operation, method: 'POST', path: pathOf('users', id, 'alternateemails'), json, signal: options.signal },
        readResultList(alternateEmailSchema),
      );
    },

    async listPage(userId, options = {}) {
      const operation = 'alternateEmails.list';
      const id = requireId(operation, 'userId', userId);
      return transport.send(
        {
          operation,
          method: 'GET',
          path: pathOf('users', id, 'alternateemails'),
          query: {
            page: optionalPositiveInt(operation, 'page', options.page),
            pageSize: optionalPositiveInt(operation, 'pageSize', options.pageSize),
            includeAll: options.includeAll,
          },
          signal: options.signal,
        },
        readAlternateEmailPage,
      );
    },

    list(userId, options = {}) {
      return iterateOffsetPages((page) => api.listPage(userId, { ...options, page }), options);
    },

    async get(userId, alternateEmailId, options = {}) {
      const operation = 'alternateEmails.get';
      const path = pathOf('users', requireId(operation, 'userId', userId), 'alternateemails', requireId(operation, 'alternateEmailId', alternateEmailId));
      return transport.send({ operation, method: 'GET', path, signal: options.signal }, readBare(alternateEmailSchema));
    },

    async delete(userId, alternateEmailId, options = {}) {
      const operation = 'alternateEmails.delete';
      const path = pathOf('users', requireId(operation, 'userId', userId), 'alternateemails', requireId(operation, 'alternateEmailId', alternateEmailId));
      return transport.send({ operation, method: 'DELETE', path, signal: options.signal }, readDone);
    },

    async makePrimary(userId, alternateEmailId, options = {}) {
      const operation = 'alternateEmails.makePrimary';
      const path = pathOf(
        'users',
        requireId(operation, 'userId', userId),
        'alternateemails',
        requireId(operation, 'alternateEmailId', alternateEmailId),
        'makeprimary',
      );
      return transport.send({ operation, method: 'POST', path, signal: options.signal }, readResultObject(alternateEmailSchema));
    },
  };
  return api;
}
