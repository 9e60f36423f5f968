import path from 'node:path';

export const MANIFEST_FORMATS = ['csv', 'json', 'jsonl'] as const;
export type ManifestFormat = (typeof MANIFEST_FORMATS)[number];

/**
 * The format of a manifest: by its extension, else by its first non-blank character (`{` on several lines of
 * objects is JSON Lines, `{`/`[` otherwise JSON, anything else CSV).
 */
export function detectManifestFormat(file: string, head: string): ManifestFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return 'csv';
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('[')) return 'json';
  if (text.startsWith('{')) {
    const firstLine = text.split('\n', 1)[0]?.trim() ?? '';
    try {
      const first: unknown = JSON.parse(firstLine);
      // A whole JSON manifest on one line has rows; a JSON Lines row does not.
      return typeof first === 'object' && first !== null && 'rows' in first ? 'json' : 'jsonl';
    } catch {
      return 'json';
    }
  }
  return 'csv';
}
