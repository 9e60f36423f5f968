import { createTransport, type Transporter } from 'nodemailer';
import { request } from 'undici';
import type { DestinationConfig, GovernanceConfig } from '../../core/governance-config.js';
import { emailMessage, httpBodyOf, linkOf } from './message-shapes.js';
import type { NotificationEvent } from './notification-event.js';
import { SIGNATURE_HEADER, signatureOf } from './sign-webhook.js';

type NotificationSettings = GovernanceConfig['notifications'];

/** How one try ended: `permanent` means trying again cannot help (the receiver refused the request itself). */
export type DeliveryAnswer = { ok: true; status?: number } | { ok: false; status?: number; error: string; permanent: boolean };

export interface DeliverOptions {
  settings: NotificationSettings;
  /** The delivery's id and try, sent as headers so a receiver can tell a retry from a new event. */
  deliveryId: string;
  attempt: number;
  nowSeconds?: () => number;
}

/** Sends one event to one destination, once. Never throws: the answer says what happened. */
export async function deliver(destination: DestinationConfig, event: NotificationEvent, options: DeliverOptions): Promise<DeliveryAnswer> {
  const link = linkOf(event, options.settings.dashboardUrl);
  try {
    if (destination.type === 'email') return await sendEmail(destination, event, link, options.settings);
    const body = JSON.stringify(httpBodyOf(destination, event, link));
    const timestamp = (options.nowSeconds ?? (() => Math.floor(Date.now() / 1000)))();
    const response = await request(destination.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'seatflow-notifications',
        'seatflow-event': event.type,
        'seatflow-event-id': event.id,
        'seatflow-delivery': options.deliveryId,
        'seatflow-attempt': String(options.attempt),
        ...(destination.secret === undefined ? {} : { [SIGNATURE_HEADER]: signatureOf(destination.secret, timestamp, body) }),
      },
      body,
      headersTimeout: options.settings.timeoutMs,
      bodyTimeout: options.settings.timeoutMs,
      signal: AbortSignal.timeout(options.settings.timeoutMs),
    });
    // The answer's body means nothing to us; read it so the connection can be reused.
    await response.body.text().catch(() => '');
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { ok: true, status };
    // A 4xx other than a timeout or a rate limit is the receiver refusing this request: retrying sends the same one.
    const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
    return { ok: false, status, error: `the receiver answered HTTP ${status}`, permanent };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    return {
      ok: false,
      ...(typeof code === 'number' ? { status: code } : {}),
      error: error instanceof Error ? error.message : String(error),
      // An SMTP 5xx reply is the server refusing this message (an unknown mailbox, a refused sender).
      permanent: typeof code === 'number' && code >= 500,
    };
  }
}

const transports = new Map<string, Transporter>();

/** One SMTP transport per server setting, reused across deliveries (nodemailer keeps no pool unless asked). */
function transportOf(smtp: NonNullable<NotificationSettings['smtp']>, timeoutMs: number): Transporter {
  const key = JSON.stringify(smtp);
  let transport = transports.get(key);
  if (transport === undefined) {
    const loopback = /^(localhost|127\.\d+\.\d+\.\d+|::1)$/.test(smtp.host);
    transport = createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      // Off the machine, a message (names, e-mails of leavers) never crosses the network unencrypted.
      requireTLS: smtp.requireTls ?? (!smtp.secure && !loopback),
      ...(smtp.user === undefined ? {} : { auth: { user: smtp.user, pass: smtp.password ?? '' } }),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    transports.set(key, transport);
  }
  return transport;
}

async function sendEmail(destination: Extract<DestinationConfig, { type: 'email' }>, event: NotificationEvent, link: string | undefined, settings: NotificationSettings): Promise<DeliveryAnswer> {
  if (settings.smtp === undefined) return { ok: false, error: 'notifications.smtp is not configured', permanent: true };
  const message = emailMessage(event, link);
  await transportOf(settings.smtp, settings.timeoutMs).sendMail({
    from: settings.smtp.from,
    to: destination.to,
    subject: message.subject,
    text: message.text,
    headers: { 'X-Seatflow-Event': event.type, 'X-Seatflow-Event-Id': event.id },
  });
  return { ok: true };
}

/** Closes the SMTP transports (at shutdown). */
export function closeTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}
