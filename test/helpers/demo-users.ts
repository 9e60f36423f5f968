import type { RunningReferenceServer } from '../../src/server/index.js';

/**
 * `count` e-mails of the demo organization that an admin may deactivate: active members with generated addresses,
 * neither admins nor managed by an identity provider.
 */
export function deactivatableEmails(server: RunningReferenceServer, count: number): string[] {
  const out: string[] = [];
  for (const user of server.context.state.users.values()) {
    if (user.status === 'ACTIVE' && user.inOrg && !user.externallyManaged && !user.admin && /^[a-z]+\.[a-z]+\.\d+@acme\.example$/.test(user.email)) out.push(user.email);
    if (out.length === count) break;
  }
  if (out.length < count) throw new Error(`only ${out.length} deactivatable users in the demo organization`);
  return out;
}
