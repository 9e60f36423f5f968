/**
 * Which Smartsheet region a base URL names (docs/configuration.md lists them); a token works only in its own region.
 * Anything else is a reference server or a proxy, named as such.
 */
export function serviceRegionOf(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.toLowerCase();
  if (host === 'api.smartsheet.com') return 'US';
  if (host === 'api.smartsheet.eu') return 'EU';
  if (host === 'api.smartsheet.au') return 'AU';
  if (host === 'api.smartsheetgov.com') return 'Gov';
  if (host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.')) return 'a server on this machine';
  return `not a Smartsheet API host (${host}): a proxy or a reference server`;
}
