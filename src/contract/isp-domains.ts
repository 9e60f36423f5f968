/**
 * Consumer mail domains: the service refuses to deactivate or reactivate users whose e-mail is on one (errorCode
 * 1359, decisions.md #11). The service's own list is not published ("gmail.com, outlook.com, …"), so this is a
 * common subset — shared by the reference server, which enforces it, and the pre-flight, which predicts it.
 */
export const ISP_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'ymail.com',
  'icloud.com', 'me.com', 'mac.com', 'aol.com', 'gmx.com', 'gmx.net', 'mail.com', 'protonmail.com', 'proton.me',
  'zoho.com', 'yandex.com', 'comcast.net',
]);

/** The domain of an e-mail address, lower-cased; '' when there is no `@`. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}

export function isIspEmail(email: string): boolean {
  return ISP_DOMAINS.has(emailDomain(email));
}
