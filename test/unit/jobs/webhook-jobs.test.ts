import { describe, expect, it } from 'vitest';
import { deleteWebhookJob } from '../../../jobs/delete-webhook.js';
import { disableWebhookJob } from '../../../jobs/disable-webhook.js';
import { enableWebhookJob } from '../../../jobs/enable-webhook.js';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resetWebhookSecretJob } from '../../../jobs/reset-webhook-secret.js';
import { updateWebhookJob } from '../../../jobs/update-webhook.js';
import { InvalidArgumentError, InvalidRequestError, ResourceNotFoundError } from '../../../src/client/api-error.js';
import { useTempDirs } from '../../helpers/temp-dirs.js';
import { IDS, contextFor, createDemoFake } from './job-fixtures.js';

const tempDir = useTempDirs();

describe('enableWebhookJob', () => {
  it('fails the row when the callback does not pass verification', async () => {
    const fake = createDemoFake();
    fake.state.failingVerification.add(IDS.disabledWebhook);
    const run = enableWebhookJob.run(contextFor(fake.api, { action: 'enable-webhook', webhookId: IDS.disabledWebhook }));
    await expect(run).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(run).rejects.toThrow(/DISABLED_VERIFICATION_FAILED/);
  });

  it('takes the webhook id from the row when the pre-flight gave none', async () => {
    const fake = createDemoFake();
    const result = await enableWebhookJob.run(contextFor(fake.api, { action: 'enable-webhook', webhookId: String(IDS.disabledWebhook) }));
    expect(result).toEqual({ outcome: 'succeeded', detail: { webhookId: IDS.disabledWebhook, status: 'ENABLED' } });
  });
});

describe('disableWebhookJob', () => {
  it('confirms done for a webhook that is off for another reason', async () => {
    const fake = createDemoFake();
    Object.assign(fake.state.webhooks.get(IDS.userWebhook)!, { enabled: false, status: 'DISABLED_CALLBACK_FAILED' });
    expect(await disableWebhookJob.confirm(contextFor(fake.api, { action: 'disable-webhook', webhookId: IDS.userWebhook }))).toBe('done');
  });
});

describe('resetWebhookSecretJob', () => {
  it('never puts the new secret in the outcome', async () => {
    const fake = createDemoFake();
    const result = await resetWebhookSecretJob.run(contextFor(fake.api, { action: 'reset-webhook-secret', webhookId: IDS.userWebhook }));
    const secret = fake.state.webhooks.get(IDS.userWebhook)?.sharedSecret;
    expect(JSON.stringify(result)).not.toContain(String(secret));
  });

  it('hands the new secret only to the file the row names: one JSON line, readable by its owner only', async () => {
    const fake = createDemoFake();
    const file = path.join(tempDir('sf-secrets-'), 'webhook-secrets.jsonl');
    const row = { action: 'reset-webhook-secret', webhookId: IDS.userWebhook, secretTo: file } as const;
    const result = await resetWebhookSecretJob.run(contextFor(fake.api, row, {}, { batchId: 'b-rotate', row: 3 }));
    const secret = String(fake.state.webhooks.get(IDS.userWebhook)?.sharedSecret);
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(result.detail).toEqual({ webhookId: IDS.userWebhook, secretTo: file });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ webhookId: IDS.userWebhook, sharedSecret: secret, batchId: 'b-rotate', row: 3 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // A second rotation appends: the newest line is the secret in force.
    await resetWebhookSecretJob.run(contextFor(fake.api, row));
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(2);
  });

  it('refuses to write the secret into a file others can read, and says the secret was reset', async () => {
    const fake = createDemoFake();
    const file = path.join(tempDir('sf-secrets-'), 'open.jsonl');
    await writeFile(file, '', { mode: 0o644 });
    const run = resetWebhookSecretJob.run(contextFor(fake.api, { action: 'reset-webhook-secret', webhookId: IDS.userWebhook, secretTo: file }));
    await expect(run).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(run).rejects.toThrow(/read by others .*chmod 600/);
    expect(await readFile(file, 'utf8')).toBe('');
  });

  it('fails confirm with not found when the webhook is gone', async () => {
    const fake = createDemoFake();
    fake.state.webhooks.delete(IDS.userWebhook);
    const confirm = resetWebhookSecretJob.confirm(contextFor(fake.api, { action: 'reset-webhook-secret', webhookId: IDS.userWebhook }));
    await expect(confirm).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('updateWebhookJob', () => {
  const repoint = { action: 'update-webhook', webhookId: IDS.userWebhook, callbackUrl: 'https://hooks.acme.io/assets', enabled: true } as const;

  it('re-points a webhook through the verification, and fails the row (left disabled) when the new URL does not answer', async () => {
    const fake = createDemoFake();
    expect(await updateWebhookJob.run(contextFor(fake.api, repoint))).toEqual({ outcome: 'succeeded', detail: { webhookId: IDS.userWebhook, status: 'ENABLED' } });
    expect(await updateWebhookJob.confirm(contextFor(fake.api, repoint))).toBe('done');
    const failing = createDemoFake();
    failing.state.failingVerification.add(IDS.userWebhook);
    await expect(updateWebhookJob.run(contextFor(failing.api, repoint))).rejects.toThrow(/not enabled: the callback URL failed verification .*stays disabled/);
    expect(failing.state.webhooks.get(IDS.userWebhook)).toMatchObject({ callbackUrl: 'https://hooks.acme.io/assets', enabled: false });
  });

  it('is undone by pointing it back at the URL it had, as on or off as it was', () => {
    const facts = { action: repoint, target: { webhookId: IDS.userWebhook }, before: { callbackUrl: 'https://hooks.acme.example/it-assets', name: 'Asset feed', enabled: false }, detail: undefined, changedAtMs: 0, nowMs: 0, reactivationWindowMs: 0 };
    expect(updateWebhookJob.inverse(facts)).toEqual({ kind: 'actions', actions: [{ action: 'update-webhook', webhookId: IDS.userWebhook, callbackUrl: 'https://hooks.acme.example/it-assets', enabled: false }] });
  });
});

describe('deleteWebhookJob', () => {
  it('answers unchanged when the delete finds the webhook already gone', async () => {
    const fake = createDemoFake();
    fake.state.webhooks.delete(IDS.userWebhook);
    const result = await deleteWebhookJob.run(contextFor(fake.api, { action: 'delete-webhook', webhookId: IDS.userWebhook }));
    expect(result).toEqual({ outcome: 'unchanged', detail: { webhookId: IDS.userWebhook, alreadyGone: true } });
  });
});
