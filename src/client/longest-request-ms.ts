import { DEFAULT_TIMEOUTS, type ClientTimeouts } from './smartsheet-client-options.js';

/**
 * The longest one request of a client with these timeouts can be in flight after it was sent: until the response
 * headers (`headersMs`) and then the body, each chunk within `bodyMs`. A request that ended without an answer (timeout,
 * reset) may still be processed by the service for up to this long, so a read taken sooner cannot show its effect.
 * Connecting is not counted: nothing reaches the service before the connection is open.
 */
export function longestRequestMs(timeouts: ClientTimeouts = {}): number {
  return (timeouts.headersMs ?? DEFAULT_TIMEOUTS.headersMs) + (timeouts.bodyMs ?? DEFAULT_TIMEOUTS.bodyMs);
}
