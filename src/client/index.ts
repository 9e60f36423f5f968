/** The typed client: what code outside src/client imports. */
export { createSmartsheetClient, type SmartsheetClient } from './create-smartsheet-client.js';
export {
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUTS,
  type BeforeRequestInfo,
  type ClientTimeouts,
  type ResponseInfo,
  type SmartsheetClientOptions,
} from './smartsheet-client-options.js';
export * from './smartsheet-api.js';
export * from './api-error.js';
export { decideRetry, DEFAULT_RETRY_POLICY, type RetryDecision, type RetryPolicy } from './retry-policy.js';
export { parseRetryAfter } from './retry-after.js';
export { UPLOAD_LIMITS } from './upload-source.js';
