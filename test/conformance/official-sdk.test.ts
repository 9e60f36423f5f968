import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as smartsheet from 'smartsheet';
import { DEMO, startReferenceServer, type RunningReferenceServer } from '../../src/server/index.js';

/**
 * The official JavaScript SDK (npm `smartsheet`), unchanged, against the reference server on port 0: every users,
 * alternate e-mail, plan, webhook, column and discussion operation it offers. When this fails, fix the server.
 */
type Sdk = ReturnType<typeof smartsheet.createClient>;
// The SDK's own types are looser than its runtime; calls go through this view.
type Loose = Record<string, Record<string, (options: Record<string, unknown>) => Promise<Record<string, unknown>>>>;

describe('official Smartsheet SDK against the reference server', () => {
  let sim: RunningReferenceServer;
  let sdk: Loose;
  let userSdk: Loose;

  // The SDK logs every refused call as "[Smartsheet] ERROR" on the console; the refusals here are expected, so its
  // lines are kept for assertions instead of being printed into the test output.
  const sdkLog: string[] = [];
  const keep = (level: string) => (message: unknown, ...args: unknown[]) => void sdkLog.push(`${level} ${String(message)} ${args.map(String).join(' ')}`);
  const quietLogger = {
    log: (level: string, message: unknown, ...args: unknown[]) => keep(level)(message, ...args),
    ...Object.fromEntries(['error', 'warn', 'info', 'verbose', 'debug', 'silly'].map((level) => [level, keep(level)])),
  };
  const client = (token: string): Loose =>
    smartsheet.createClient({ accessToken: token, baseUrl: `${sim.url}/`, logger: quietLogger as never }) as unknown as Sdk & Loose;
  const idOf = (email: string): number => sim.context.state.usersByEmail.get(email)!;

  beforeAll(async () => {
    sim = await startReferenceServer({ rateLimit: 'off', users: 20, now: '2026-01-15T00:00:00Z' });
    sdk = client(sim.tokens.admin);
    userSdk = client(sim.tokens.user);
  });
  afterAll(async () => sim.close());

  it('keeps the SDK quiet on an expected refusal: its error lines go to the test, not the console', async () => {
    const printed: string[] = [];
    const capture = (stream: NodeJS.WriteStream) => {
      const write = stream.write.bind(stream);
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        printed.push(String(chunk));
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      return () => void (stream.write = write);
    };
    const restore = [capture(process.stdout), capture(process.stderr)];
    try {
      await expect(sdk.users!.getUser!({ userId: 1234567890123457 })).rejects.toMatchObject({ statusCode: 404 });
    } finally {
      restore.forEach((undo) => undo());
    }
    expect(printed.join('')).not.toContain('[Smartsheet]');
    expect(sdkLog.some((line) => line.startsWith('error Response: Failure'))).toBe(true);
  });

  it('lists, gets, adds, updates and removes users', async () => {
    const list = await sdk.users!.listAllUsers!({ queryParameters: { email: 'dana.whitfield@acme.example' } });
    expect((list.data as { email: string }[])[0]?.email).toBe('dana.whitfield@acme.example');
    const me = await sdk.users!.getCurrentUser!({});
    expect(me.email).toBe('admin@acme.example');
    const user = await sdk.users!.getUser!({ userId: idOf('marcus.chen@acme.example') });
    expect(user.status).toBe('ACTIVE');
    const added = await sdk.users!.addUser!({ body: { email: 'sdk.user@acme.example', admin: false, licensedSheetCreator: true }, queryParameters: { sendEmail: false } });
    const newId = (added.result as { id: number }).id;
    const updated = await sdk.users!.updateUser!({ userId: newId, body: { firstName: 'Sdk', admin: false } });
    expect((updated.result as { firstName: string }).firstName).toBe('Sdk');
    const removed = await sdk.users!.removeUser!({ userId: newId, queryParameters: { removeFromSharing: true } });
    expect(removed).toMatchObject({ message: 'SUCCESS', resultCode: 0 });
  });

  it('deactivates and reactivates a user', async () => {
    const userId = idOf('marcus.chen@acme.example');
    expect(await sdk.users!.deactivateUser!({ userId })).toMatchObject({ resultCode: 0 });
    expect(await sdk.users!.reactivateUser!({ userId })).toMatchObject({ resultCode: 0 });
  });

  it('reports the service error codes through the SDK', async () => {
    await expect(sdk.users!.deactivateUser!({ userId: idOf('sam.taylor@gmail.com') })).rejects.toMatchObject({ statusCode: 403, errorCode: 1359 });
    await expect(userSdk.users!.deactivateUser!({ userId: idOf('marcus.chen@acme.example') })).rejects.toMatchObject({ statusCode: 403, errorCode: 1004 });
    await expect(sdk.users!.getUser!({ userId: 1234567890123456 })).rejects.toMatchObject({ statusCode: 404, errorCode: 1006 });
  });

  it('uploads a profile image', async () => {
    const { Readable } = await import('node:stream');
    const res = await sdk.users!.addProfileImage!({
      userId: idOf('marcus.chen@acme.example'),
      fileStream: Readable.from([Buffer.alloc(512, 7)]),
      fileName: 'avatar.png',
      fileSize: 512,
      contentType: 'image/png',
    });
    expect((res.result as { profileImage?: unknown }).profileImage).toBeDefined();
  });

  it('lists plans, upgrades, downgrades and removes from a plan', async () => {
    const noah = idOf('noah.fischer@acme.example');
    const plans = await sdk.users!.listUserPlans!({ userId: noah, queryParameters: { include: ['planNames'] } });
    expect((plans.data as { planName: string }[]).map((p) => p.planName)).toEqual(['Acme Corp', 'Acme Labs']);
    // The SDK's own spelling (ListUserPlansInclusion.PLAN_NAME = 'planName') and a maxItems below the minimum of 100.
    const named = await sdk.users!.listUserPlans!({ userId: noah, queryParameters: { include: 'planName', maxItems: 1 } });
    expect((named.data as { planName: string }[]).map((p) => p.planName)).toEqual(['Acme Corp', 'Acme Labs']);
    const casey = idOf('casey.nguyen@acme.example');
    expect(await sdk.users!.upgradeUser!({ userId: casey, planId: DEMO.planId, body: { seatType: 'MEMBER' } })).toMatchObject({ resultCode: 0 });
    expect(await sdk.users!.downgradeUser!({ userId: casey, planId: DEMO.planId, body: { seatType: 'CONTRIBUTOR' } })).toMatchObject({ resultCode: 0 });
    expect(await sdk.users!.removeUserFromPlan!({ userId: noah, planId: DEMO.labsPlanId })).toMatchObject({ resultCode: 0 });
  });

  it('manages alternate e-mails', async () => {
    const userId = idOf('dana.whitfield@acme.example');
    const added = await sdk.users!.addAlternateEmail!({ userId, body: [{ email: 'dana.w@acme.example' }] });
    const alt = (added.result as { id: number }[])[0]!;
    const list = await sdk.users!.listAlternateEmails!({ userId });
    expect(list.totalCount).toBe(1);
    expect(await sdk.users!.getAlternateEmail!({ userId, alternateEmailId: alt.id })).toMatchObject({ email: 'dana.w@acme.example' });
    const primary = await sdk.users!.makeAlternateEmailPrimary!({ userId, alternateEmailId: alt.id });
    expect((primary.result as { email: string }).email).toBe('dana.w@acme.example');
    expect(await sdk.users!.deleteAlternateEmail!({ userId, alternateEmailId: alt.id })).toMatchObject({ resultCode: 0 });
    await expect(sdk.users!.getAlternateEmail!({ userId, alternateEmailId: alt.id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('manages webhooks', async () => {
    const created = await sdk.webhooks!.createWebhook!({
      body: { name: 'sdk hook', callbackUrl: 'https://hooks.acme.example/sdk', scope: 'sheet', scopeObjectId: DEMO.itAssetSheetId, events: ['*.*'], version: 1 },
    });
    const webhookId = (created.result as { id: number }).id;
    const list = await sdk.webhooks!.listWebhooks!({ queryParameters: { includeAll: true } });
    expect((list.data as { id: number }[]).map((w) => w.id)).toContain(webhookId);
    expect(await sdk.webhooks!.getWebhook!({ webhookId })).toMatchObject({ name: 'sdk hook', status: 'NEW_NOT_VERIFIED' });
    const enabled = await sdk.webhooks!.updateWebhook!({ webhookId, body: { enabled: true } });
    expect(enabled.result).toMatchObject({ status: 'DISABLED_VERIFICATION_FAILED' });
    const secret = await sdk.webhooks!.resetSharedSecret!({ webhookId });
    expect(typeof (secret.result as { sharedSecret: string }).sharedSecret).toBe('string');
    expect(await sdk.webhooks!.deleteWebhook!({ webhookId })).toMatchObject({ resultCode: 0 });
  });

  it('manages columns', async () => {
    const sheetId = DEMO.itAssetSheetId;
    const list = await sdk.sheets!.getColumns!({ sheetId, queryParameters: { includeAll: true, level: 2 } });
    expect(list.totalCount).toBe(5);
    const added = await sdk.sheets!.addColumn!({ sheetId, body: [{ title: 'Cost', type: 'TEXT_NUMBER', index: 5 }] });
    const columnId = (added.result as { id: number }[])[0]!.id;
    expect(await sdk.sheets!.getColumns!({ sheetId, columnId })).toMatchObject({ title: 'Cost' });
    const updated = await sdk.sheets!.updateColumn!({ sheetId, columnId, body: { title: 'Unit cost', index: 1 } });
    expect(updated.result).toMatchObject({ title: 'Unit cost', index: 1 });
    expect(await sdk.sheets!.deleteColumn!({ sheetId, columnId })).toMatchObject({ resultCode: 0 });
  });

  it('manages discussions', async () => {
    const sheetId = DEMO.apolloSheetId;
    const list = await sdk.sheets!.getDiscussions!({ sheetId, queryParameters: { include: 'comments' } });
    expect((list.data as { parentType: string }[]).map((d) => d.parentType).sort()).toEqual(['ROW', 'SHEET']);
    const created = await sdk.sheets!.createDiscussion!({ sheetId, body: { comment: { text: 'From the SDK' } } });
    const discussionId = (created.result as { id: number }).id;
    expect(await sdk.sheets!.getDiscussion!({ sheetId, discussionId })).toMatchObject({ title: 'From the SDK' });
    expect(await sdk.sheets!.deleteDiscussion!({ sheetId, discussionId })).toMatchObject({ resultCode: 0 });
  });
});
