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

/**
 * Previews in memory, each for `ttlMs`, at most `max` of them and `maxBytes` of manifests together (the oldest go
 * first): a preview is a short-lived step, and a few large uploads must not hold the server's memory.
 */
export function createPlanPreviews(options: { ttlMs?: number; max?: number; maxBytes?: number; now?: () => number } = {}) {
  const ttlMs = options.ttlMs ?? 30 * 60 * 1000;
  const max = options.max ?? 20;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { preview: PlanPreview; at: number }>();
  const bytesHeld = () => [...entries.values()].reduce((sum, entry) => sum + entry.preview.bytes.length, 0);
  const prune = () => {
    for (const [id, entry] of entries) if (now() - entry.at > ttlMs) entries.delete(id);
    // The newest preview always stays, whatever its size (it is within the body limit).
    while (entries.size > 1 && (entries.size > max || bytesHeld() > maxBytes)) entries.delete(entries.keys().next().value as string);
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
