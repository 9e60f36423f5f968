import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../../../src/manifest/load-manifest.js';
import { PNG_BYTES } from '../../helpers/png-bytes.js';

describe('files named by manifest rows', () => {
  let base: string;
  let folder: string;
  let outside: string;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'seatflow-files-'));
    folder = path.join(base, 'manifests');
    outside = path.join(base, 'secret.txt');
    await mkdir(path.join(folder, 'img'), { recursive: true });
    await writeFile(outside, 'root:x:0:0\n');
    await writeFile(path.join(folder, 'img', 'a.png'), PNG_BYTES);
    await writeFile(path.join(folder, 'img', 'text.png'), 'this is not an image\n');
    await writeFile(path.join(folder, 'notes.txt'), 'meeting notes\n');
    await symlink(outside, path.join(folder, 'img', 'link.png'));
    await symlink(path.join(folder, 'img', 'a.png'), path.join(folder, 'img', 'inner.png'));
    await mkdir(path.join(folder, 'img', 'dir.png'));
    await writeFile(path.join(base, 'outside.png'), PNG_BYTES);
    await link(path.join(base, 'outside.png'), path.join(folder, 'img', 'hard.png'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const load = (csv: string, options: { files?: { dir: string } | { refuse: string } } = {}) =>
    loadManifest({ path: path.join(folder, 'm.csv'), content: csv, ...options });
  const imageRow = (image: string) => `email,action,image\na@acme.example,set-profile-image,${image}\n`;
  const problemOf = async (csv: string) => (await load(csv)).invalid[0]?.problems[0];

  it('keeps a file inside the folder, with its size, hash and the type its bytes show', async () => {
    const manifest = await load(imageRow('img/a.png'));
    expect(manifest.invalid).toEqual([]);
    expect(manifest.rows.at(0)?.upload).toMatchObject({ relative: path.join('img', 'a.png'), size: PNG_BYTES.length, detectedType: 'image/png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('refuses an absolute path, naming the row', async () => {
    const problem = await problemOf(imageRow(path.join(folder, 'img', 'a.png')));
    expect(problem).toMatchObject({ row: 1, line: 2, field: 'image' });
    expect(problem?.message).toMatch(/is an absolute path/);
  });

  it('refuses a .. escape', async () => {
    const manifest = await load('action,sheetId,comment,file\ncreate-discussion,1,hi,../secret.txt\n');
    expect([...manifest.rows]).toEqual([]);
    expect(manifest.invalid[0]?.problems[0]).toMatchObject({ row: 1, field: 'file', message: expect.stringMatching(/leads outside .*\(\.\. is refused\)/) });
  });

  it('refuses a symbolic link leading outside the folder, and follows one that stays inside', async () => {
    expect((await problemOf(imageRow('img/link.png')))?.message).toMatch(/symbolic link leading outside/);
    const inner = await load(imageRow('img/inner.png'));
    expect(inner.rows.at(0)?.upload?.relative).toBe(path.join('img', 'a.png'));
  });

  it('refuses a hard link, which may be a file from anywhere on the disk', async () => {
    expect((await problemOf(imageRow('img/hard.png')))?.message).toMatch(/"img\/hard.png" has other hard links/);
  });

  it('refuses what is not a regular file, and a file that is not there', async () => {
    expect((await problemOf(imageRow('img/dir.png')))?.message).toMatch(/not a regular file/);
    expect((await problemOf(imageRow('img/none.png')))?.message).toMatch(/file not found: "img\/none.png"/);
  });

  it('refuses a profile image whose bytes are not an image, whatever its name', async () => {
    expect((await problemOf(imageRow('img/text.png')))?.message).toMatch(/"img\/text.png" is not a PNG, JPEG or GIF image/);
  });

  it('takes attachments of any type, inside the folder', async () => {
    const manifest = await load('action,sheetId,comment,file\ncreate-discussion,1,hi,notes.txt\n');
    expect(manifest.rows.at(0)?.upload).toMatchObject({ relative: 'notes.txt' });
    // Kept as JSON (RowStore), a type its bytes do not show is absent rather than a property holding undefined.
    expect(manifest.rows.at(0)?.upload?.detectedType).toBeUndefined();
  });

  it('resolves paths inside --files DIR instead of the manifest folder', async () => {
    const manifest = await load(imageRow('a.png'), { files: { dir: path.join(folder, 'img') } });
    expect(manifest.rows.at(0)?.upload?.relative).toBe('a.png');
    expect((await load(imageRow('../notes.txt'), { files: { dir: path.join(folder, 'img') } })).invalid).toHaveLength(1);
  });

  it('refuses every file-bearing row without touching the disk when files are refused (control API)', async () => {
    const manifest = await load(imageRow('img/a.png'), { files: { refuse: 'the control API does not read files' } });
    expect(manifest.invalid[0]?.problems[0]).toMatchObject({ field: 'image', message: '"img/a.png": the control API does not read files' });
  });
});
