import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { PNG_BYTES } from '../helpers/png-bytes.js';

const batches = useBatchHarnesses();

describe('a batch that uploads files', () => {
  it('uploads the bytes the plan checked, and fails a row whose file was swapped for a link leading out since', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const [first, second] = await h.deactivatableEmails(2);
    mkdirSync(path.join(h.dir, 'img'), { recursive: true });
    writeFileSync(path.join(h.dir, 'img', 'ok.png'), PNG_BYTES);
    writeFileSync(path.join(h.dir, 'img', 'swap.png'), PNG_BYTES);
    const plan = await h.plan(h.writeManifest('images.csv', ['email,action,image', `${first},set-profile-image,img/ok.png`, `${second},set-profile-image,img/swap.png`]));
    expect([...plan.rows].map((row) => [row.verdict, row.reason])).toEqual([
      ['change', `uploads img/ok.png (${PNG_BYTES.length} bytes, image/png)`],
      ['change', `uploads img/swap.png (${PNG_BYTES.length} bytes, image/png)`],
    ]);

    // Between plan and run, the second image becomes a link to a file outside the folder (an image too, so only the
    // run-time check can tell).
    const outside = path.join(path.dirname(h.dir), `outside-${path.basename(h.dir)}.png`);
    writeFileSync(outside, Buffer.concat([PNG_BYTES, Buffer.from('secret')]));
    try {
      rmSync(path.join(h.dir, 'img', 'swap.png'));
      symlinkSync(outside, path.join(h.dir, 'img', 'swap.png'));
      const { batch } = await h.system.submit(plan);
      h.startWorkers();
      const done = await h.waitForState(batch.id, ['finished']);
      expect(done.counts).toMatchObject({ succeeded: 1, failed: 1 });
      const outcomes = await h.outcomes(batch.id);
      expect(outcomes[1]).toMatchObject({ outcome: 'failed', category: 'InvalidArgument', message: expect.stringMatching(/img\/swap.png is now reached through a symbolic link since the plan: nothing was uploaded/) });
      const uploads = (await h.mutations()).filter((m) => m.operation === 'addProfileImage');
      expect(uploads).toHaveLength(1);
      expect(uploads[0]?.summary).toContain(`(${PNG_BYTES.length} bytes, image/png)`);
    } finally {
      rmSync(outside, { force: true });
    }
  });
});
