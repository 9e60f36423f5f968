import type { DestinationConfig } from '../../core/governance-config.js';
import type { NotificationEvent } from './notification-event.js';

/**
 * The body each kind of destination takes, from one event. Slack and Teams get the shapes their incoming webhooks
 * accept (Block Kit; an Adaptive Card in a message); a plain webhook gets the event itself as JSON.
 */

/** The event's dashboard link, when notifications.dashboardUrl says where the dashboard is. */
export function linkOf(event: Pick<NotificationEvent, 'path'>, dashboardUrl: string | undefined): string | undefined {
  if (event.path === undefined || dashboardUrl === undefined) return undefined;
  // Relative to the dashboard's own path (it may be served under one, e.g. https://ops.example.com/seatflow/).
  return new URL(event.path.replace(/^\/+/, ''), dashboardUrl.endsWith('/') ? dashboardUrl : `${dashboardUrl}/`).toString();
}

/** A title that says SIMULATION when the event comes from the reference server, as every screen does. */
export function titleOf(event: Pick<NotificationEvent, 'title' | 'sim'>): string {
  return event.sim === true ? `[SIMULATION] ${event.title}` : event.title;
}

export function webhookBody(event: NotificationEvent, link: string | undefined): Record<string, unknown> {
  return { ...event, title: titleOf(event), ...(link === undefined ? {} : { url: link }) };
}

/** Slack: `text` for notifications and clients without blocks; the same facts as blocks. */
export function slackBody(event: NotificationEvent, link: string | undefined): Record<string, unknown> {
  const title = titleOf(event);
  return {
    text: title,
    blocks: [
      // A header block holds at most 150 characters of plain text.
      { type: 'header', text: { type: 'plain_text', text: clip(title, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: clip(slackEscape(event.text), 3000) } },
      ...(link === undefined ? [] : [{ type: 'context', elements: [{ type: 'mrkdwn', text: `<${link}|Open in seatflow>` }] }]),
    ],
  };
}

/** Teams: a message carrying one Adaptive Card (what Teams workflows and incoming webhooks take). */
export function teamsBody(event: NotificationEvent, link: string | undefined): Record<string, unknown> {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: titleOf(event), weight: 'Bolder', size: 'Medium', wrap: true },
            ...event.text.split('\n').map((line) => ({ type: 'TextBlock', text: line, wrap: true, spacing: 'Small' })),
          ],
          ...(link === undefined ? {} : { actions: [{ type: 'Action.OpenUrl', title: 'Open in seatflow', url: link }] }),
        },
      },
    ],
  };
}

/** E-mail: a subject line and a plain-text body. */
export function emailMessage(event: NotificationEvent, link: string | undefined): { subject: string; text: string } {
  const lines = [event.text, '', ...(link === undefined ? [] : [`Open in seatflow: ${link}`, '']), `Event ${event.type} (${event.id}) at ${event.occurredAt}.`];
  // A subject is one line: a line break there would start a header of the attacker's choosing.
  return { subject: `[seatflow] ${titleOf(event)}`.replace(/[\r\n]+/g, ' '), text: lines.join('\n') };
}

export function httpBodyOf(destination: Exclude<DestinationConfig, { type: 'email' }>, event: NotificationEvent, link: string | undefined): Record<string, unknown> {
  switch (destination.type) {
    case 'slack':
      return slackBody(event, link);
    case 'teams':
      return teamsBody(event, link);
    case 'webhook':
      return webhookBody(event, link);
  }
}

/** Slack reads &, < and > as markup. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
