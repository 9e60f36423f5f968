/**
 * Where the service runs (docs/service.md#regions): one API host per region. Smartsheet Gov offers neither deactivate
 * nor reactivate user, so the pre-flight must know when its target is Gov; every screen that shows the target names
 * the region.
 */
export const SERVICE_REGIONS = ['US', 'EU', 'GOV', 'AU'] as const;
export type ServiceRegion = (typeof SERVICE_REGIONS)[number];

const REGION_HOSTS: Record<ServiceRegion, { host: string; name: string }> = {
  US: { host: 'api.smartsheet.com', name: 'Smartsheet (US)' },
  EU: { host: 'api.smartsheet.eu', name: 'Smartsheet Regions Europe' },
  GOV: { host: 'api.smartsheetgov.com', name: 'Smartsheet Gov' },
  AU: { host: 'api.smartsheet.au', name: 'Smartsheet Regions Australia' },
};

/** The region whose API host the base URL names; undefined for any other host (a reference server, a proxy). */
export function regionOfBaseUrl(baseUrl: string): ServiceRegion | undefined {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return SERVICE_REGIONS.find((region) => REGION_HOSTS[region].host === host);
}

/** How screens name a region, e.g. "Smartsheet Gov". */
export function regionName(region: ServiceRegion): string {
  return REGION_HOSTS[region].name;
}

/** Deactivate and reactivate user exist everywhere but on Smartsheet Gov. */
export function offersDeactivation(region: ServiceRegion | undefined): boolean {
  return region !== 'GOV';
}
