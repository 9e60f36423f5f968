/** What the reference server takes for an e-mail address (add user, alternate e-mails, contact cells). */
export const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
