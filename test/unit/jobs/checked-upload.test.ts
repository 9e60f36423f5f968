import { rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckedUpload } from '../../../jobs/checked-upload.js';
import { InvalidArgumentError } from '../../../src/client/api-error.js';
import { useCheckedFiles } from '../../helpers/checked-files.js';
import { PNG_BYTES } from '../../helpers/png-bytes.js';

describe('readCheckedUpload', () => {
  const files = useCheckedFiles();

  it('gives the bytes the plan checked, with their type', async () => {
    const checked = await files.file('ok/a.png', PNG_BYTES);
    expect(await readCheckedUpload('upload', checked)).toEqual({ data: PNG_BYTES, fileName: 'a.png', contentType: 'image/png' });
  });

  it('refuses a file swapped for a symbolic link to a file outside since the plan', async () => {
    const checked = await files.file('swap/a.png', PNG_BYTES);
    const secret = path.join(files.folder, '..', `seatflow-secret-${process.pid}.png`);
    await writeFile(secret, PNG_BYTES);
    try {
      const full = path.join(checked.root, checked.relative);
      await rm(full);
      await symlink(secret, full);
      const error = await readCheckedUpload('upload', checked).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(/swap\/a.png is now reached through a symbolic link since the plan: nothing was uploaded/);
    } finally {
      await rm(secret, { force: true });
    }
  });

  it('refuses a file whose bytes changed since the plan, even at the same size', async () => {
    const checked = await files.file('edit/a.png', PNG_BYTES);
    const changed = Buffer.from(PNG_BYTES);
    changed.writeUInt8(changed.readUInt8(changed.length - 1) ^ 0xff, changed.length - 1);
    await writeFile(path.join(checked.root, checked.relative), changed);
    await expect(readCheckedUpload('upload', checked)).rejects.toThrow(/changed content since the plan/);
  });

  it('refuses a row without a checked file instead of reading a path', async () => {
    await expect(readCheckedUpload('upload', undefined)).rejects.toThrow(/no checked file/);
  });
});
