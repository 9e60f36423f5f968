/**
 * Consumer mail providers: the real service refuses to deactivate or reactivate users whose e-mail is on one of
 * them (error 1359, decisions.md #11). Not exhaustive, as on the real service ("gmail.com, outlook.com, …").
 */
export const ISP_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'gmx.com',
  'gmx.net',
  'mail.com',
  'protonmail.com',
  'proton.me',
  'zoho.com',
  'yandex.com',
  'comcast.net',
]);

export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}

export function isIspEmail(email: string): boolean {
  return ISP_DOMAINS.has(emailDomain(email));
}

/** A plan domain covers itself and its subdomains (`acme.example` covers `labs.acme.example`). */
export function domainMatches(email: string, domains: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domains.some((d) => {
    const plan = d.toLowerCase();
    return domain === plan || domain.endsWith(`.${plan}`);
  });
}
