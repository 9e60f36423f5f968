import { describe, expect, it } from 'vitest';
import { deleteWebhookJob } from '../../../jobs/delete-webhook.js';
import { disableWebhookJob } from '../../../jobs/disable-webhook.js';
import { enableWebhookJob } from '../../../jobs/enable-webhook.js';
import { resetWebhookSecretJob } from '../../../jobs/reset-webhook-secret.js';
import { InvalidRequestError, ResourceNotFoundError } from '../../../src/client/api-error.js';
import { IDS, contextFor, createDemoFake } from './job-fixtures.js';

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

  it('fails confirm with not found when the webhook is gone', async () => {
    const fake = createDemoFake();
    fake.state.webhooks.delete(IDS.userWebhook);
    const confirm = resetWebhookSecretJob.confirm(contextFor(fake.api, { action: 'reset-webhook-secret', webhookId: IDS.userWebhook }));
    await expect(confirm).rejects.toBeInstanceOf(ResourceNotFoundError);
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
