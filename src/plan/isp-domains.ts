/**
 * Consumer mail domains. The service refuses to deactivate or reactivate users whose e-mail is on one (errorCode
 * 1359); the pre-flight reads the domain from the e-mail so such rows are refused before anything runs. The service's
 * own list is not published ("gmail.com, outlook.com, …"), so this one is a common subset.
 */
const ISP_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'ymail.com',
  'icloud.com', 'me.com', 'mac.com', 'aol.com', 'gmx.com', 'gmx.net', 'mail.com', 'protonmail.com', 'proton.me',
  'zoho.com', 'yandex.com', 'comcast.net',
]);

export function isIspEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase();
  return ISP_DOMAINS.has(domain);
}
