/** The wire of the service: the only thing the client and the reference server share. */
export * from './ids.js';
export * from './enums.js';
export * from './user.js';
export * from './user-plan.js';
export * from './alternate-email.js';
export * from './discussion.js';
export * from './column.js';
export * from './webhook.js';
export * from './sheet.js';
export * from './envelopes.js';
export * from './error-codes.js';
export * from './isp-domains.js';
export * from './unrecognized-value.js';
export * from './list-users-paging.js';
export * from './service-regions.js';
export * from './viewer-sunset.js';
export * from './sheet-owner-seats.js';
