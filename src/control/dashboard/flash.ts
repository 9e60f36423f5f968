import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createPreviews } from './plan-previews.js';

/**
 * What a form post did, kept for the page it redirects to (post, redirect, get): a reload then shows the result again
 * and never sends the form twice. Each is bound to the session that posted it and read by the id in `?done=`.
 */
export interface Flash<T> {
  /** Keeps `value` for the request's session; the id goes into the URL the post redirects to. */
  keep(request: FastifyRequest, value: T): string;
  /** The value the request's `?done=` names, when this session kept it (and it has not expired). */
  read(request: FastifyRequest): T | undefined;
}

const doneSchema = z.object({ done: z.string().regex(/^[0-9a-f]{32}$/).optional().catch(undefined) });

/** `url` with `?done=<id>` (or `&done=`). */
export function withDone(url: string, id: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}done=${id}`;
}

/** In memory, like the previews: 30 minutes, a few hundred at most (each is a few lines of text). */
export function createFlash<T>(sizeOf: (value: T) => number = () => 1024): Flash<T> {
  const store = createPreviews<{ session: string; value: T }>((entry) => sizeOf(entry.value), { max: 500, maxBytes: 8 * 1024 * 1024 });
  return {
    keep: (request, value) => store.add({ session: request.dashboardSession ?? '', value }),
    read(request) {
      const id = doneSchema.parse(request.query ?? {}).done;
      const entry = id === undefined ? undefined : store.get(id);
      return entry !== undefined && entry.session === (request.dashboardSession ?? '') ? entry.value : undefined;
    },
  };
}
