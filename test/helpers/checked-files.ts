import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkLocalFile, type LocalFile } from '../../src/manifest/local-file.js';
import { useTempDirs } from './temp-dirs.js';

/**
 * A temporary folder for files rows upload (useTempDirs: removed after the file's tests). `file()` writes one and
 * checks it as reading a manifest does, giving the LocalFile a plan hands to the row's job.
 */
export function useCheckedFiles() {
  const folder = useTempDirs()('seatflow-upload-');
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
