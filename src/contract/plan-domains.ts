import { emailDomain } from './isp-domains.js';

/**
 * Whether an address is on one of a plan's validated domains: a domain covers itself and its subdomains
 * (`acme.example` covers `labs.acme.example`). The reference server decides with it which addresses count as
 * confirmed and internal; a migration's plan decides with it which make-primary calls the service will refuse (1186).
 */
export function domainMatches(email: string, domains: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domains.some((d) => {
    const plan = d.toLowerCase();
    return domain === plan || domain.endsWith(`.${plan}`);
  });
}
