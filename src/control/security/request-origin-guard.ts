import type { FastifyRequest } from 'fastify';
import { isLoopbackHost } from '../loopback-host.js';
import type { ControlHttpPolicy } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';

/**
 * Refuses requests a web page could have sent on someone's behalf, before auth or body parsing:
 * - a Host the server is not known by (DNS rebinding: evil.example resolving to 127.0.0.1 makes the browser treat
 *   the API as evil.example's own);
 * - an Origin other than the server's own or a configured one (cross-site fetches and form posts carry one);
 * - `Sec-Fetch-Site: cross-site` (what browsers say when no Origin is sent).
 */
export function createRequestOriginGuard(policy: Pick<ControlHttpPolicy, 'bindHost' | 'allowedHosts' | 'allowedOrigins'>): (request: FastifyRequest) => void {
  const allowedHosts = new Set(policy.allowedHosts.map((host) => host.toLowerCase()));
  const anyHost = !isLoopbackHost(policy.bindHost) && allowedHosts.size === 0;
  const allowedOrigins = new Set(policy.allowedOrigins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));

  return (request) => {
    const host = (request.headers.host ?? '').toLowerCase();
    const hostName = hostNameOf(host);
    if (!anyHost && !isLoopbackHost(hostName) && !allowedHosts.has(hostName) && !allowedHosts.has(host)) {
      throw new ControlError(403, CONTROL_ERROR_CODES.forbiddenHost, `this server does not answer to the host name "${hostName}"`, {
        hint: 'Reach it as 127.0.0.1 or localhost, or add the name to control.allowedHosts in the config file.',
      });
    }
    const origin = request.headers.origin?.toLowerCase();
    if (origin !== undefined) {
      const own = [`http://${host}`, `https://${host}`];
      if (!own.includes(origin) && !allowedOrigins.has(origin)) {
        throw new ControlError(403, CONTROL_ERROR_CODES.forbiddenOrigin, `requests from the origin ${origin} are refused`, {
          hint: 'Web pages of other sites cannot use this API. To allow a site of your own, add its origin to control.allowedOrigins.',
        });
      }
      return;
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new ControlError(403, CONTROL_ERROR_CODES.forbiddenOrigin, 'cross-site requests are refused', {
        hint: 'Web pages of other sites cannot use this API.',
      });
    }
  };
}

/** `127.0.0.1:8080` → `127.0.0.1`, `[::1]:8080` → `::1`. */
function hostNameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') === -1 ? undefined : host.indexOf(']'));
  return host.split(':', 1)[0] ?? '';
}
