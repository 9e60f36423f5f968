import { z } from 'zod';

/** A mail domain as people type it: `acme.io` (no `@`, no scheme), kept lower-case. */
export const mailDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((text) => text.replace(/^@/, ''))
  .pipe(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, { message: 'is not a mail domain (write it as acme.io: no @, no https://)' }));

/** What to do with the old address once the new one is primary. */
export const OLD_ADDRESS_CHOICES = ['keep', 'remove'] as const;

/**
 * A domain migration as an operator asks for it (`seatflow migrate domain`, the dashboard's form, an approval's stored
 * input): the same object is planned again when the change is approved.
 */
export const domainMigrationRequestSchema = z
  .object({
    from: mailDomainSchema,
    to: mailDomainSchema,
    /** The current addresses of the users to migrate (`--users FILE`); every user on `from` when absent. */
    users: z.array(z.string().trim().toLowerCase()).min(1).optional(),
    /** The file the users came from, as named, for the plan's title. */
    usersFile: z.string().optional(),
    /** Keep the old address as an alternate (the default, and what a revert needs), or delete it. */
    oldAddress: z.enum(OLD_ADDRESS_CHOICES).default('keep'),
    /**
     * The domains validated for the plan (Admin Center → Domain management), as the operator says: the API does not
     * tell them. Absent: unknown (the plan assumes `from` is validated and `to` needs each owner's confirmation).
     */
    validatedDomains: z.array(mailDomainSchema).optional(),
    /** How long the migration waits for owners to confirm their new address; the last check ends the wait. */
    confirmWithinDays: z.number().int().min(1).max(90).default(14),
  })
  .refine((request) => request.from !== request.to, { message: 'the old and the new domain are the same', path: ['to'] });

export type DomainMigrationRequest = z.output<typeof domainMigrationRequestSchema>;
export type DomainMigrationInput = z.input<typeof domainMigrationRequestSchema>;

/** `jordan.lee@acme.com` → `jordan.lee@acme.io`: the local part kept, the domain replaced. */
export function newAddressOf(email: string, to: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, at).toLowerCase()}@${to}`;
}
