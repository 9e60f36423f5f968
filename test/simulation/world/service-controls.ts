import { z } from 'zod';
import { CHANGE_CHANNELS } from '../../../src/server/sim/change-source.js';
import type { Mutation } from '../../../src/server/sim/mutation-log.js';

const clockSchema = z.object({ epochMs: z.number() });
const mutationsSchema = z.object({
  data: z.array(z.object({ seq: z.number(), at: z.string(), operation: z.string(), resourceType: z.string(), resourceId: z.union([z.number(), z.string()]), userId: z.number().optional(), actorId: z.number().optional(), via: z.enum(CHANGE_CHANNELS), summary: z.string() })),
});
const usersSchema = z.object({
  data: z.array(z.object({ id: z.number(), email: z.string(), status: z.string().optional(), admin: z.boolean().optional() }).loose()),
  totalPages: z.number().optional(),
});

const columnSchema = z.object({ id: z.number(), title: z.string(), primary: z.boolean().optional() }).loose();
const webhookSchema = z.object({ id: z.number(), name: z.string(), status: z.string().optional() }).loose();
const outsideChangeSchema = z.object({ changed: z.boolean(), mutation: z.object({ seq: z.number() }).loose().optional() });
const listSchema = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** A user as the service lists it, as much as the simulation reads. */
export type ServiceUser = z.infer<typeof usersSchema>['data'][number];

/**
 * The reference server as the simulation drives and reads it: its clock (`/_sim/clock`), its faults (`/_sim/faults`),
 * its mutation log and its users, through its HTTP interface only (it runs as its own process).
 */
export interface ServiceControls {
  origin: string;
  /** The base URL of the API (`…/2.0`). */
  url: string;
  adminToken: string;
  now(): Promise<number>;
  setClock(epochMs: number): Promise<number>;
  /** Puts the demo organization back, loaded relative to the clock's time now. */
  reset(): Promise<void>;
  setFaults(spec: string, seed: number): Promise<void>;
  mutations(afterSeq?: number): Promise<Mutation[]>;
  /** Every user of the organization (one page: the demo organization has a few hundred). */
  users(): Promise<ServiceUser[]>;
  columns(sheetId: number): Promise<{ id: number; title: string; primary?: boolean }[]>;
  webhooks(): Promise<{ id: number; name: string; status?: string }[]>;
  /** A change made in the Admin Center (`POST /_sim/outside-change`): whether it changed anything, and its seq. */
  outsideChange(body: Record<string, unknown>): Promise<{ changed: boolean; seq?: number }>;
}

export function serviceControls(origin: string, adminToken: string): ServiceControls {
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${origin}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  return {
    origin,
    url: `${origin}/2.0`,
    adminToken,
    now: async () => clockSchema.parse(await call('GET', '/_sim/clock')).epochMs,
    setClock: async (epochMs) => clockSchema.parse(await call('POST', '/_sim/clock', { now: epochMs })).epochMs,
    reset: async () => void (await call('POST', '/_sim/reset')),
    setFaults: async (spec, seed) => void (await call('PUT', '/_sim/faults', { spec, seed })),
    mutations: async (afterSeq) => mutationsSchema.parse(await call('GET', `/_sim/mutations${afterSeq === undefined ? '' : `?afterSeq=${afterSeq}`}`)).data,
    users: async () => usersSchema.parse(await call('GET', '/2.0/users?includeAll=true')).data,
    columns: async (sheetId) => listSchema(columnSchema).parse(await call('GET', `/2.0/sheets/${sheetId}/columns?includeAll=true`)).data,
    webhooks: async () => listSchema(webhookSchema).parse(await call('GET', '/2.0/webhooks?includeAll=true')).data,
    async outsideChange(body) {
      const answer = outsideChangeSchema.parse(await call('POST', '/_sim/outside-change', body));
      return { changed: answer.changed, ...(answer.mutation === undefined ? {} : { seq: answer.mutation.seq }) };
    },
  };
}
