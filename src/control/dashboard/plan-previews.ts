import { randomBytes } from 'node:crypto';
import type { ActionName } from '../../manifest/action.js';
import type { ManifestFormat } from '../../manifest/manifest-format.js';
import type { GuardrailCheck } from '../../plan/guardrails.js';
import type { BatchPlan } from '../../plan/planned-row.js';

/** A manifest a person previewed, kept until they submit it (the plan they saw is of exactly these bytes). */
export interface PlanPreview {
  bytes: Buffer;
  format: ManifestFormat;
  name: string;
  action: ActionName | undefined;
  skipInvalid: boolean;
  /** Columns the person said mean nothing here (`--ignore-column`). */
  ignoreColumns: readonly string[];
  needsConfirmation: boolean;
  /** The plan as it was shown (the preview page is a GET of it: a reload plans nothing again). */
  shown?: { plan: BatchPlan; guardrails: GuardrailCheck; warnings: string[] };
  /** The session that previewed it: only that session sees or submits it. */
  session?: string | undefined;
}

export interface PreviewsOptions {
  ttlMs?: number;
  max?: number;
  maxBytes?: number;
  now?: () => number;
}

/**
 * Previews in memory, each for `ttlMs`, at most `max` of them and `maxBytes` together as `sizeOf` counts them (the
 * oldest go first): a preview is a short-lived step, and a few large uploads must not hold the server's memory.
 */
export function createPreviews<T>(sizeOf: (preview: T) => number, options: PreviewsOptions = {}) {
  const ttlMs = options.ttlMs ?? 30 * 60 * 1000;
  const max = options.max ?? 20;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { preview: T; at: number }>();
  const bytesHeld = () => [...entries.values()].reduce((sum, entry) => sum + sizeOf(entry.preview), 0);
  const prune = () => {
    for (const [id, entry] of entries) if (now() - entry.at > ttlMs) entries.delete(id);
    // The newest preview always stays, whatever its size (it is within the body limit).
    while (entries.size > 1 && (entries.size > max || bytesHeld() > maxBytes)) entries.delete(entries.keys().next().value as string);
  };
  return {
    add(preview: T): string {
      const id = randomBytes(16).toString('hex');
      entries.set(id, { preview, at: now() });
      prune();
      return id;
    },
    get(id: string): T | undefined {
      prune();
      return entries.get(id)?.preview;
    },
    delete(id: string): void {
      entries.delete(id);
    },
  };
}

/** Manifest previews of the plan page, counted by the bytes they hold (and about 1 KiB a planned row). */
export function createPlanPreviews(options: PreviewsOptions = {}) {
  return createPreviews<PlanPreview>((preview) => preview.bytes.length + (preview.shown?.plan.rows.length ?? 0) * 1024, options);
}
export type PlanPreviews = ReturnType<typeof createPlanPreviews>;
