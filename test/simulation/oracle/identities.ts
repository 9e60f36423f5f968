import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import type { ServiceUser } from '../world/service-controls.js';

/**
 * Who is who: user ids and e-mails, from the service's user list at the start and at the end, and from the mutation
 * log's own lines for users added meanwhile (`added <email> (…)`): what ties a plan's e-mail to a change of a user id.
 */
export interface Identities {
  emailOf(userId: number): string | undefined;
  idOf(email: string): number | undefined;
}

export function identitiesOf(lists: readonly (readonly ServiceUser[])[], mutations: readonly Mutation[]): Identities {
  const emails = new Map<number, string>();
  for (const list of lists) for (const user of list) emails.set(user.id, user.email.toLowerCase());
  for (const mutation of mutations) {
    const added = mutation.operation === 'addUser' ? /^added (\S+) \(/.exec(mutation.summary) : null;
    if (added !== null && mutation.userId !== undefined) emails.set(mutation.userId, added[1]!.toLowerCase());
  }
  const ids = new Map([...emails].map(([id, email]) => [email, id]));
  return { emailOf: (userId) => emails.get(userId), idOf: (email) => ids.get(email.toLowerCase()) };
}
