import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../../src/manifest/load-manifest.js';
import { formatPlan } from '../../../src/plan/format-plan.js';
import { preflight } from '../../../src/plan/preflight.js';
import { useCheckedFiles } from '../../helpers/checked-files.js';
import { PNG_BYTES } from '../../helpers/png-bytes.js';
import { createFakeApi, demoOrg } from './fake-api.js';

describe('preflight of rows that upload a file', () => {
  const files = useCheckedFiles();

  async function planIn(csv: string) {
    const manifest = await loadManifest({ path: path.join(files.folder, 'm.csv'), content: csv });
    expect(manifest.invalid).toEqual([]);
    return preflight(manifest, { api: createFakeApi(demoOrg(0)) });
  }

  it('shows each file a row uploads (path inside the folder, size, detected type) and hands it to the job', async () => {
    await files.file('img/priya.png', PNG_BYTES);
    const plan = await planIn('email,action,image\npriya.shah@acme.example,set-profile-image,img/priya.png\n');
    expect(plan.rows.at(0)).toMatchObject({ verdict: 'change', reason: `uploads img/priya.png (${PNG_BYTES.length} bytes, image/png)` });
    expect(plan.rows.at(0)?.target).toMatchObject({ profileImageId: '', upload: { relative: 'img/priya.png', size: PNG_BYTES.length } });
    expect(formatPlan(plan)).toContain(`uploads img/priya.png (${PNG_BYTES.length} bytes, image/png)`);
  });

  it('refuses a profile image over 1 MB before anything runs', async () => {
    await writeFile(path.join(files.folder, 'big.png'), Buffer.concat([PNG_BYTES, Buffer.alloc(1024 * 1024)]));
    const plan = await planIn('email,action,image\npriya.shah@acme.example,set-profile-image,big.png\n');
    expect(plan.rows.at(0)).toMatchObject({ verdict: 'refused', rule: 'file-too-large' });
    expect(plan.rows.at(0)?.reason).toBe(`big.png is ${(PNG_BYTES.length + 1024 * 1024).toLocaleString('en-US')} bytes; a profile image may be at most 1 MB (1,048,576 bytes)`);
  });
});
