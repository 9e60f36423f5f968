import { regionName, type ServiceRegion } from '../../contract/service-regions.js';

/**
 * The target as doctor names it: the region (config `api.region`, else the base URL's host; docs/service.md#regions),
 * or, for any other host, what it is (a server on this machine, a proxy or a reference server). A token works only in
 * its own region.
 */
export function describeTarget(baseUrl: string, region: ServiceRegion | undefined): string {
  if (region !== undefined) return regionName(region);
  const host = new URL(baseUrl).hostname.toLowerCase();
  if (host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.')) return 'a server on this machine';
  return `not a Smartsheet API host (${host}): a proxy or a reference server`;
}
