import { webhookCreateSchema, webhookSchema, webhookSharedSecretSchema, webhookUpdateSchema } from '../../contract/index.js';
import { optionalPositiveInt, pathOf, requireId, requireValid } from '../arguments.js';
import { invalidArgument } from '../error-factory.js';
import { readBare, readDone, readIndexResult, readResultObject } from '../envelope-readers.js';
import { iterateOffsetPages } from '../paging.js';
import type { Transport } from '../transport.js';
import type { WebhooksApi } from '../smartsheet-api.js';

const readWebhookPage = readIndexResult(webhookSchema);

export function createWebhooksApi(transport: Transport): WebhooksApi {
  const api: WebhooksApi = {
    async listPage(options = {}) {
      const operation = 'webhooks.list';
      return transport.send(
        {
          operation,
          method: 'GET',
          path: pathOf('webhooks'),
          query: {
            page: optionalPositiveInt(operation, 'page', options.page),
            pageSize: optionalPositiveInt(operation, 'pageSize', options.pageSize),
            includeAll: options.includeAll,
          },
          signal: options.signal,
        },
        readWebhookPage,
      );
    },

    // After the 2026-06-03 sunset the totals are -1 and includeAll is ignored: iterateOffsetPages reads to a short page.
    list(options = {}) {
      return iterateOffsetPages((page) => api.listPage({ ...options, page }), options);
    },

    async get(webhookId, options = {}) {
      const operation = 'webhooks.get';
      const path = pathOf('webhooks', requireId(operation, 'webhookId', webhookId));
      return transport.send({ operation, method: 'GET', path, signal: options.signal }, readBare(webhookSchema));
    },

    async create(webhook, options = {}) {
      const operation = 'webhooks.create';
      const json = requireValid(operation, 'webhook', webhookCreateSchema, webhook);
      return transport.send(
        { operation, method: 'POST', path: pathOf('webhooks'), json, signal: options.signal },
        readResultObject(webhookSchema),
      );
    },

    async update(webhookId, changes, options = {}) {
      const operation = 'webhooks.update';
      const path = pathOf('webhooks', requireId(operation, 'webhookId', webhookId));
      const json = requireValid(operation, 'changes', webhookUpdateSchema, changes);
      if (Object.keys(json).length === 0) throw invalidArgument(operation, 'changes must name at least one field');
      return transport.send({ operation, method: 'PUT', path, json, signal: options.signal }, readResultObject(webhookSchema));
    },

    async delete(webhookId, options = {}) {
      const operation = 'webhooks.delete';
      const path = pathOf('webhooks', requireId(operation, 'webhookId', webhookId));
      return transport.send({ operation, method: 'DELETE', path, signal: options.signal }, readDone);
    },

    async resetSharedSecret(webhookId, options = {}) {
      const operation = 'webhooks.resetSharedSecret';
      const path = pathOf('webhooks', requireId(operation, 'webhookId', webhookId), 'resetsharedsecret');
      return transport.send({ operation, method: 'POST', path, signal: options.signal }, readResultObject(webhookSharedSecretSchema));
    },
  };
  return api;
}
