import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/client/api-error.js';
import { createSmartsheetClient, type SmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import { MEGABYTE } from '../../../src/client/upload-source.js';
import { startStubHttpServer, type StubHttpServer } from '../../helpers/stub-http-server.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const user = { id: 4583173393803140, email: 'dana.whitfield@acme.example' };
const discussion = { id: 1234567890123456, title: 'Laptop returned' };

let dir: string;
let server: StubHttpServer;
let client: SmartsheetClient;
let costs: number[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seatflow-upload-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function start(result: unknown) {
  costs = [];
  server = await startStubHttpServer(() => ({ body: { message: 'SUCCESS', resultCode: 0, result } }));
  client = createSmartsheetClient({ baseUrl: server.url, accessToken: 'tok-uploads', beforeRequest: async (call) => void costs.push(call.cost) });
}

afterEach(async () => {
  await client.close();
  await server.close();
});

describe('uploadProfileImage', () => {
  it('sends raw bytes with the image type and an attachment filename, costing 10', async () => {
    await start(user);
    expect(await client.users.uploadProfileImage(user.id, { data: PNG, fileName: 'dana face.png' })).toEqual(user);
    const request = server.requests[0]!;
    expect(request.url).toBe(`/2.0/users/${user.id}/profileimage`);
    expect(request.headers['content-type']).toBe('image/png');
    expect(request.headers['content-disposition']).toBe('attachment; filename="dana%20face.png"');
    expect(request.headers['content-length']).toBe(String(PNG.byteLength));
    expect(request.body.equals(PNG)).toBe(true);
    expect(costs).toEqual([10]);
  });

  it('streams from a path and tells a PNG by its first bytes when the name has no extension', async () => {
    await start(user);
    const path = join(dir, 'avatar');
    await writeFile(path, PNG);
    await client.users.uploadProfileImage(user.id, { path });
    expect(server.requests[0]!.headers['content-type']).toBe('image/png');
    expect(server.requests[0]!.body.equals(PNG)).toBe(true);
  });

  it('refuses an image over 1 MB before sending', async () => {
    await start(user);
    const error = await client.users.uploadProfileImage(user.id, { data: Buffer.alloc(MEGABYTE + 1, 1), fileName: 'big.png' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/big\.png is 1,048,577 bytes; the limit is 1 MB \(1,048,576 bytes\)/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a file that is not an image, a missing path and an empty file', async () => {
    await start(user);
    await expect(client.users.uploadProfileImage(1, { data: Buffer.from('hello'), fileName: 'notes.txt' })).rejects.toThrow(/not a PNG, JPEG or GIF/);
    await expect(client.users.uploadProfileImage(1, { path: join(dir, 'missing.png') })).rejects.toThrow(/cannot be read: ENOENT/);
    await expect(client.users.uploadProfileImage(1, { data: Buffer.alloc(0), fileName: 'empty.png' })).rejects.toThrow(/is empty/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a path that is a folder as an invalid argument, before sending', async () => {
    await start(user);
    const error = await client.users.uploadProfileImage(1, { path: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toContain(`image ${dir} is not a file`);
    expect(server.requests).toHaveLength(0);
  });
});

describe('createWithAttachment', () => {
  it('sends a multipart body with a `discussion` JSON part and a `file` part, costing 10', async () => {
    await start(discussion);
    const path = join(dir, 'receipt.pdf');
    await writeFile(path, 'PDF-BYTES');
    await client.discussions.createWithAttachment(2094857361029384, { comment: { text: 'Laptop returned' } }, { path });
    const request = server.requests[0]!;
    const boundary = /boundary=(.+)$/.exec(String(request.headers['content-type']))![1]!;
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers['content-length']).toBe(String(request.body.byteLength));
    const text = request.body.toString();
    expect(text).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="discussion"\r\nContent-Type: application/json\r\n\r\n` +
        `{"comment":{"text":"Laptop returned"}}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="receipt.pdf"\r\nContent-Type: application/pdf\r\n\r\n` +
        `PDF-BYTES\r\n--${boundary}--\r\n`,
    );
    expect(costs).toEqual([10]);
  });

  it('refuses an attachment over 30 MB before sending', async () => {
    await start(discussion);
    const data = Buffer.alloc(30 * MEGABYTE + 1);
    await expect(client.discussions.createWithAttachment(1, { comment: { text: 'x' } }, { data, fileName: 'huge.bin' })).rejects.toThrow(
      /huge\.bin is 31,457,281 bytes; the limit is 30 MB/,
    );
    expect(server.requests).toHaveLength(0);
  });
});
