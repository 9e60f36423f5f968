import { describe, expect, it } from 'vitest';
import { governanceSchema } from '../../../src/core/governance-config.js';
import { emailMessage, linkOf, slackBody, teamsBody, webhookBody } from '../../../src/governance/notifications/message-shapes.js';
import type { NotificationEvent } from '../../../src/governance/notifications/notification-event.js';
import { signatureOf, verifySignature } from '../../../src/governance/notifications/sign-webhook.js';

const event: NotificationEvent = {
  id: 'batch.finished:b0123456789ab:2026-11-23T10:00:00.000Z',
  type: 'batch.finished',
  occurredAt: '2026-11-23T10:00:01.000Z',
  title: 'Batch b0123456789ab finished: 3 rows: 2 succeeded, 1 failed',
  text: 'offboarding.csv\n3 rows: 2 succeeded, 1 failed <check>',
  path: '/batches/b0123456789ab',
  sim: true,
  data: { batchId: 'b0123456789ab', counts: { succeeded: 2, failed: 1 } },
};

describe('webhook signatures', () => {
  it('sign the timestamp and the body with HMAC-SHA256, and a receiver checks both', () => {
    const body = JSON.stringify(webhookBody(event, undefined));
    const header = signatureOf('a-shared-secret-of-16+', 1_800_000_000, body);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature('a-shared-secret-of-16+', header, body, 1_800_000_010)).toBe(true);
    expect(verifySignature('a-shared-secret-of-16+', header, `${body} `, 1_800_000_010)).toBe(false);
    expect(verifySignature('another-secret-entirely', header, body, 1_800_000_010)).toBe(false);
    // An old delivery replayed later is refused by its timestamp.
    expect(verifySignature('a-shared-secret-of-16+', header, body, 1_800_000_000 + 3600)).toBe(false);
  });
});

describe('message shapes', () => {
  const link = linkOf(event, 'https://seatflow.example.com/dash');
  it('link to the dashboard when its address is configured', () => {
    expect(link).toBe('https://seatflow.example.com/dash/batches/b0123456789ab');
    expect(linkOf(event, undefined)).toBeUndefined();
  });

  it('give a webhook the event itself, titled SIMULATION for the reference server', () => {
    expect(webhookBody(event, link)).toMatchObject({ id: event.id, type: 'batch.finished', title: `[SIMULATION] ${event.title}`, data: event.data, url: link });
  });

  it("give Slack text and Block Kit blocks, with Slack's markup characters escaped", () => {
    const body = slackBody(event, link) as { text: string; blocks: Array<{ type: string; text?: { text: string }; elements?: Array<{ text: string }> }> };
    expect(body.text).toBe(`[SIMULATION] ${event.title}`);
    expect(body.blocks.map((block) => block.type)).toEqual(['header', 'section', 'context']);
    expect(body.blocks[1]!.text!.text).toContain('&lt;check&gt;');
    expect(body.blocks[2]!.elements![0]!.text).toBe(`<${link}|Open in seatflow>`);
  });

  it('give Teams a message carrying one Adaptive Card', () => {
    const body = teamsBody(event, link) as { type: string; attachments: Array<{ contentType: string; content: { type: string; version: string; body: Array<{ text: string }>; actions: Array<{ url: string }> } }> };
    expect(body.type).toBe('message');
    expect(body.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(body.attachments[0]!.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4', actions: [{ url: link }] });
    expect(body.attachments[0]!.content.body.map((block) => block.text)).toEqual([`[SIMULATION] ${event.title}`, 'offboarding.csv', '3 rows: 2 succeeded, 1 failed <check>']);
  });

  it('give e-mail a one-line subject and the facts in plain text', () => {
    const mail = emailMessage({ ...event, title: 'two\r\nlines' }, link);
    expect(mail.subject).toBe('[seatflow] [SIMULATION] two lines');
    expect(mail.text).toContain(`Open in seatflow: ${link}`);
    expect(mail.text).toContain(event.id);
  });
});

describe('notification destinations in the config', () => {
  it('need a secret for a webhook, SMTP for e-mail, and events to subscribe to', () => {
    const webhook = { name: 'ops', type: 'webhook', url: 'https://hooks.example.com/seatflow', secret: 'a-shared-secret-of-16+', events: ['batch.finished'] };
    expect(governanceSchema.safeParse({ notifications: { destinations: [webhook] } }).success).toBe(true);
    expect(governanceSchema.safeParse({ notifications: { destinations: [{ ...webhook, secret: undefined }] } }).success).toBe(false);
    expect(governanceSchema.safeParse({ notifications: { destinations: [{ ...webhook, events: [] }] } }).success).toBe(false);
    expect(governanceSchema.safeParse({ notifications: { destinations: [{ ...webhook, events: ['batch.exploded'] }] } }).success).toBe(false);
    const email = { name: 'it', type: 'email', to: ['it@acme.example'], events: ['approval.needed'] };
    expect(governanceSchema.safeParse({ notifications: { destinations: [email] } }).success).toBe(false);
    expect(governanceSchema.safeParse({ notifications: { destinations: [email], smtp: { host: 'mail.acme.example', from: 'seatflow@acme.example' } } }).success).toBe(true);
  });
});
