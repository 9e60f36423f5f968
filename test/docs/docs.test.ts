import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headingAnchors, markdownLinks, markedBlocks } from '../helpers/markdown.js';
import { runCommand } from '../helpers/run-command.js';
import { ROOT } from '../helpers/run-seatflow.js';

// The README and the manual (docs/) hold together: every relative link and #anchor leads somewhere, every docs/ page a
// source file cites exists (with its anchor), and the commands of code blocks marked ```sh runnable run (exit 0).
const pages = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Why a link from `from` (a repository path) does not lead anywhere, or undefined when it does. */
function brokenLink(from: string, target: string): string | undefined {
  const [file, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = file === '' ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURIComponent(file)));
  if (resolved.startsWith('..') || !existsSync(path.join(ROOT, resolved))) return `${target}: no file ${resolved}`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md') || statSync(path.join(ROOT, resolved)).isDirectory()) return `${target}: an anchor into a file that is not Markdown`;
  return headingAnchors(read(resolved)).has(anchor) ? undefined : `${target}: no heading #${anchor} in ${resolved}`;
}

describe('the README and docs/', () => {
  it('has relative links and anchors that all lead somewhere', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const target of markdownLinks(read(page))) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const problem = brokenLink(page, target);
        if (problem !== undefined) broken.push(`${page}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('lists every page of docs/ in the README’s manual', () => {
    const linked = new Set(markdownLinks(read('README.md')).map((target) => target.split('#', 1)[0]));
    expect(pages.filter((page) => page.startsWith('docs/') && !linked.has(page))).toEqual([]);
  });

  it('is a front door of about 10 KB', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThan(11 * 1024);
  });
});

describe('citations of the manual in the code', () => {
  it('name docs/ pages and anchors that exist', () => {
    const broken: string[] = [];
    const walk = (dir: string): string[] =>
      readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`]));
    const sources = ['src', 'jobs', 'bench', 'test', 'config', 'deploy', 'scripts'].flatMap(walk).filter((file) => /\.(ts|json|ya?ml|conf|service|sh|example)$/.test(file));
    for (const file of [...sources, 'Dockerfile']) {
      for (const match of read(file).matchAll(/\bdocs\/([\w-]+\.md)(#[\w-]+)?/g)) {
        const problem = brokenLink('README.md', `docs/${match[1]}${match[2] ?? ''}`);
        if (problem !== undefined) broken.push(`${file}: ${problem}`);
      }
      for (const match of read(file).matchAll(/\bREADME(?:\.md)?, "([^"]+)"/g)) broken.push(`${file}: cites the README's "${match[1]}": cite the docs/ page that has it`);
    }
    expect(broken).toEqual([]);
  });

  it('never cite the spec files the project was started from (what seatflow knows of the service is docs/service.md)', () => {
    let cited = '';
    try {
      cited = execFileSync('git', ['grep', '-nE', '(wire|decisions|interface)\\.md', '--', 'src', 'jobs', 'test', 'bench', 'docs', 'README.md'], { cwd: ROOT, encoding: 'utf8' });
    } catch {
      // git grep exits 1 when nothing matches: what this test wants.
    }
    expect(cited).toBe('');
  });
});

describe('commands marked runnable', { timeout: 120_000 }, () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'seatflow-docs-'));
    // `seatflow` as a reader who ran `npm link` has it: the checkout's bin/seatflow.
    await writeFile(path.join(work, 'seatflow'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'bin/seatflow')}" "$@"\n`);
    await chmod(path.join(work, 'seatflow'), 0o755);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const commands = pages.flatMap((page) => markedBlocks(read(page), 'runnable').flatMap((block) => block.map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line !== '' && !line.startsWith('#')).map((line) => [page, line] as const)));

  it('are few and quick: --sim commands only', () => {
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.length).toBeLessThanOrEqual(6);
    for (const [, line] of commands) expect(line).toMatch(/ --sim\b/);
  });

  it.each(commands)('%s: %s exits 0', async (_page, line) => {
    const env = { ...process.env, PATH: `${work}${path.delimiter}${process.env.PATH}`, SEATFLOW_HOME: path.join(work, 'home'), SMARTSHEET_ACCESS_TOKEN: '', REDIS_URL: '' };
    const { code, stdout, stderr } = await runCommand('sh', ['-c', line], { cwd: ROOT, env, timeoutMs: 120_000 });
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toContain('SIMULATION');
  });
});
