/**
 * The consumer mail domains the service publishes: users whose primary e-mail is on one cannot be deactivated (nor
 * reactivated) and are refused with 403/1359 (docs/service.md#consumer-mail-domains). The list is the one the help
 * centre prints, "Overview: User deactivation and reactivation"
 * (https://help.smartsheet.com/articles/2483483-overview-user-deactivation-and-reactivation): 17 domains, matched
 * exactly (a sub-domain such as `mail.gmail.com` is not on it). One list for the reference server, which enforces it,
 * and the pre-flight, which predicts it.
 */
export const ISP_DOMAINS: ReadonlySet<string> = new Set([
  'aol.com', 'charter.net', 'comcast.net', 'duck.com', 'email.com', 'gmail.com', 'hotmail.com', 'icloud.com', 'live.com',
  'mail.com', 'mail.ru', 'outlook.com', 'rocketmail.com', 'usa.com', 'verizon.net', 'web.de', 'yahoo.com',
]);

/** The domain of an e-mail address, lower-cased; '' when there is no `@`. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}

export function isIspEmail(email: string): boolean {
  return ISP_DOMAINS.has(emailDomain(email));
}
