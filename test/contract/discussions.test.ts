import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceNotFoundError } from '../../src/client/api-error.js';
import { collect } from '../helpers/collect.js';
import { useContractServer } from '../helpers/contract-server.js';

const IT_ASSETS = 2094857361029384;
const APOLLO = 2094857361029385;

const server = useContractServer();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seatflow-contract-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('discussions (contract)', () => {
  it('creates a discussion and gets it back with its comment', async () => {
    const created = await server().admin.discussions.create(IT_ASSETS, { comment: { text: 'Laptop IT-1004 returned by Jordan.' } });
    expect(created.title).toBe('Laptop IT-1004 returned by Jordan.');
    const fetched = await server().admin.discussions.get(IT_ASSETS, created.id);
    expect(fetched.comments?.[0]?.text).toBe('Laptop IT-1004 returned by Jordan.');
  });

  it('creates a discussion with an attachment streamed from a path (multipart)', async () => {
    const path = join(dir, 'handover note.txt');
    await writeFile(path, 'Handed over to Dana.');
    const created = await server().admin.discussions.createWithAttachment(IT_ASSETS, { comment: { text: 'Handover' } }, { path });
    expect(created.title).toBe('Handover');
    const [withFiles] = (await server().admin.discussions.listPage(IT_ASSETS, { include: ['comments', 'attachments'] })).data.filter(
      (discussion) => discussion.id === created.id,
    );
    const attachment = withFiles?.commentAttachments?.[0] ?? withFiles?.comments?.[0]?.attachments?.[0];
    expect(attachment?.mimeType).toBe('text/plain');
    expect(attachment?.name).toBe('handover note.txt');
  });

  it('creates a discussion with an attachment from a Buffer (multipart)', async () => {
    const created = await server().admin.discussions.createWithAttachment(
      IT_ASSETS,
      { comment: { text: 'Receipt attached' } },
      { data: Buffer.from('%PDF-1.4 fake'), fileName: 'receipt.pdf' },
    );
    expect(created.id).toBeGreaterThan(0);
  });

  it('lists sheet-level and row-level discussions over pages of one', async () => {
    const first = await server().admin.discussions.listPage(APOLLO, { pageSize: 1 });
    expect(first.totalPages).toBe(2);
    const all = await collect(server().admin.discussions.list(APOLLO, { pageSize: 1, include: ['comments'] }));
    expect(all.map((discussion) => discussion.parentType).sort()).toEqual(['ROW', 'SHEET']);
    expect(all.every((discussion) => (discussion.comments?.length ?? 0) > 0)).toBe(true);
  });

  it('deletes a discussion', async () => {
    const created = await server().admin.discussions.create(IT_ASSETS, { comment: { text: 'temporary' } });
    await server().admin.discussions.delete(IT_ASSETS, created.id);
    await expect(server().admin.discussions.get(IT_ASSETS, created.id)).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});
