import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/run-seatflow.js';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*]/g, '')
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

function anchorsOf(doc: string): Set<string> {
  const text = readFileSync(path.join(ROOT, 'docs', doc), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1] ?? '')));
}

/** Every citation of a docs page with a section (docs/ then the page, or a relative link inside docs) in the files. */
function citations(): { file: string; doc: string; anchor: string }[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'jobs', 'test', 'bench', 'docs', 'README.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => /\.(ts|md)$/.test(f));
  const found: { file: string; doc: string; anchor: string }[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const match of text.matchAll(/(?:docs\/|\()([a-z-]+)\.md#([a-z0-9-]+)/g)) found.push({ file, doc: `${match[1]}.md`, anchor: match[2] ?? '' });
  }
  return found;
}

describe('citations of the project\'s own docs', () => {
  it('name a section that exists, so code can point at docs/service.md#… without the link rotting', () => {
    const anchors = new Map<string, Set<string>>();
    const broken = citations().filter(({ doc, anchor }) => {
      if (!anchors.has(doc)) anchors.set(doc, anchorsOf(doc));
      return !anchors.get(doc)!.has(anchor);
    });
    expect(broken).toEqual([]);
    expect(anchors.get('service.md')?.has('paging-list-users')).toBe(true);
  });

  it('never cite the spec files the project was started from', () => {
    let cited = '';
    try {
      cited = execFileSync('git', ['grep', '-nE', '(wire|decisions|interface)\\.md', '--', 'src', 'jobs', 'test', 'bench', 'docs', 'README.md'], { cwd: ROOT, encoding: 'utf8' });
    } catch {
      // git grep exits 1 when nothing matches: what this test wants.
    }
    expect(cited).toBe('');
  });
});
