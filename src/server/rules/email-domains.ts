import { emailDomain } from '../../contract/isp-domains.js';

/** What the reference server takes for an e-mail address (add user, alternate e-mails, contact cells). */
export const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A plan domain covers itself and its subdomains (`acme.example` covers `labs.acme.example`). */
export function domainMatches(email: string, domains: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domains.some((d) => {
    const plan = d.toLowerCase();
    return domain === plan || domain.endsWith(`.${plan}`);
  });
}
