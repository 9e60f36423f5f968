import { randomBytes } from 'node:crypto';
import type { ActionName } from '../../manifest/action.js';
import type { ManifestFormat } from '../../manifest/manifest-format.js';

/** A manifest a person previewed, kept until they submit it (the plan they saw is of exactly these bytes). */
export interface PlanPreview {
  bytes: Buffer;
  format: ManifestFormat;
  name: string;
  action: ActionName | undefined;
  skipInvalid: boolean;
  needsConfirmation: boolean;
}

/** Previews in memory, each for `ttlMs`, at most `max` (the oldest go first): a preview is a short-lived step. */
export function createPlanPreviews(options: { ttlMs?: number; max?: number; now?: () => number } = {}) {
  const ttlMs = options.ttlMs ?? 30 * 60 * 1000;
  const max = options.max ?? 20;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { preview: PlanPreview; at: number }>();
  const prune = () => {
    for (const [id, entry] of entries) if (now() - entry.at > ttlMs) entries.delete(id);
    while (entries.size > max) entries.delete(entries.keys().next().value as string);
  };
  return {
    add(preview: PlanPreview): string {
      const id = randomBytes(16).toString('hex');
      entries.set(id, { preview, at: now() });
      prune();
      return id;
    },
    get(id: string): PlanPreview | undefined {
      prune();
      return entries.get(id)?.preview;
    },
    delete(id: string): void {
      entries.delete(id);
    },
  };
}
export type PlanPreviews = ReturnType<typeof createPlanPreviews>;
