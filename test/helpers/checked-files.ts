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
    folder,
    async file(name: string, bytes: Buffer | string): Promise<LocalFile> {
      const target = path.join(folder, name);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, bytes);
      const checked = await checkLocalFile(name, folder, 64 * 1024 * 1024);
      if (!checked.ok) throw new Error(checked.message);
      return checked.file;
    },
  };
}
