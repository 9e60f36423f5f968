import { invalidArgument } from './error-factory.js';
import { createAlternateEmailsApi } from './resources/alternate-emails-api.js';
import { createColumnsApi } from './resources/columns-api.js';
import { createDiscussionsApi } from './resources/discussions-api.js';
import { createSheetsApi } from './resources/sheets-api.js';
import { createUsersApi } from './resources/users-api.js';
import { createWebhooksApi } from './resources/webhooks-api.js';
import { createTransport } from './transport.js';
import { createSeatNaming } from './seat-naming.js';
import type { SmartsheetClientOptions } from './smartsheet-client-options.js';
import type { SmartsheetApi } from './smartsheet-api.js';

/** The HTTP client; `close()` releases the keep-alive connections of the dispatcher it made itself. */
export interface SmartsheetClient extends SmartsheetApi {
  close(): Promise<void>;
}

const HEADER_SAFE = /^[\x20-\x7e\u00a0-\u00ff]*$/;

/** Builds the typed client over undici. Nothing is sent until an operation is called. */
export function createSmartsheetClient(options: SmartsheetClientOptions): SmartsheetClient {
  if (typeof options?.accessToken !== 'string' || options.accessToken.trim() === '') {
    throw invalidArgument('createSmartsheetClient', 'accessToken is required');
  }
  if (options.baseUrl !== undefined && !/^https?:\/\//i.test(options.baseUrl)) {
    throw invalidArgument('createSmartsheetClient', `baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  // A header value undici refuses would otherwise surface at the first call, looking like a network failure.
  for (const [name, value] of [['accessToken', options.accessToken], ['changeAgent', options.changeAgent], ['integrationOrg', options.integrationOrg], ['userAgent', options.userAgent]] as const) {
    if (value !== undefined && !HEADER_SAFE.test(value)) {
      throw invalidArgument('createSmartsheetClient', `${name} must be printable text without line breaks (it is sent as an HTTP header)`);
    }
  }
  if (options.viewerSunset !== undefined && Number.isNaN(new Date(options.viewerSunset).getTime())) {
    throw invalidArgument('createSmartsheetClient', `viewerSunset must be a date, got ${JSON.stringify(options.viewerSunset)}`);
  }
  const transport = createTransport(options);
  return {
    users: createUsersApi(transport, createSeatNaming(options)),
    alternateEmails: createAlternateEmailsApi(transport),
    discussions: createDiscussionsApi(transport),
    columns: createColumnsApi(transport),
    webhooks: createWebhooksApi(transport),
    sheets: createSheetsApi(transport),
    close: () => transport.close(),
  };
}
