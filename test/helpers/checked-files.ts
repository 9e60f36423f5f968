import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { checkLocalFile, type LocalFile } from '../../src/manifest/local-file.js';

/**
 * A temporary folder for files rows upload, made before the suite and removed after it. `file()` writes one and
 * checks it as reading a manifest does, giving the LocalFile a plan hands to the row's job.
 */
export function useCheckedFiles() {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'seatflow-upload-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return {
    folder: () => folder,
    async file(name: string, bytes: Buffer | string): Promise<LocalFile> {
      await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
      await writeFile(path.join(folder, name), bytes);
      const checked = await checkLocalFile(name, folder, 64 * 1024 * 1024);
      if (!checked.ok) throw new Error(checked.message);
      return checked.file;
    },
  };
}
