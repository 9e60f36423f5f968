import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who is making the change the server is applying now, and through what: an API call (the token's user and its
 * `Smartsheet-Change-Agent`), the Admin Center or an identity-provider sync (`POST /_sim/outside-change`), or the
 * service itself (a Provisional Member's review period ending). The mutation log and the webhook events both read it,
 * so every change carries its actor without each route passing it along.
 */
export const CHANGE_CHANNELS = ['api', 'admin-center', 'identity-provider', 'service'] as const;
export type ChangeChannel = (typeof CHANGE_CHANNELS)[number];

export interface ChangeSource {
  via: ChangeChannel;
  /** The acting user; absent for the service's own changes (and an identity provider that names nobody). */
  actorId?: number;
  changeAgent?: string;
}

const SERVICE: ChangeSource = { via: 'service' };
const storage = new AsyncLocalStorage<ChangeSource>();

/** Runs `work` with `source` as the author of every change it makes (awaits included). */
export function runAs<T>(source: ChangeSource, work: () => T): T {
  return storage.run(source, work);
}

/** The author of the change being made: outside any `runAs`, the service itself. */
export function currentChangeSource(): ChangeSource {
  return storage.getStore() ?? SERVICE;
}
