import { html, type SafeHtml } from './html.js';

/** What a form post did, as the page it redirects to shows it first. */
export interface Notice {
  kind: 'ok' | 'note' | 'error';
  text: string;
  /** One line per person or row the action was about (an undo's leavers). */
  items?: Array<{ text: string; failed?: boolean }>;
  /** Where to go next. */
  links?: Array<{ href: string; label: string }>;
}

export const NOTICE_ID = 'result';

/**
 * The result at the top of the page, where keyboard focus lands (autofocus on load, so the next Tab is the page's next
 * action, not the navigation's first link) and a screen reader reads it: a status, or an alert when it failed.
 */
export function noticeBlock(notice: Notice): SafeHtml {
  const kind = notice.kind === 'ok' ? 'ok-note' : notice.kind === 'note' ? 'note' : 'error';
  return html`<section id="${NOTICE_ID}" class="result ${kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}" tabindex="-1" autofocus aria-label="Result">
<p>${notice.text}</p>
${notice.items === undefined || notice.items.length === 0 ? '' : html`<ul>${notice.items.map((item) => html`<li${item.failed === true ? html` class="refused"` : ''}>${item.text}</li>`)}</ul>`}
${notice.links === undefined || notice.links.length === 0 ? '' : html`<p class="actions">${notice.links.map((link) => html`<a class="button secondary" href="${link.href}">${link.label}</a>`)}</p>`}
</section>`;
}

/** A form's refusal at the top of the form: what went wrong and each bad row, focused like a result. */
export function formErrorBlock(error: { message: string; problems?: string[] | undefined } | undefined): SafeHtml | '' {
  if (error === undefined) return '';
  return html`<div id="${NOTICE_ID}" class="error" role="alert" tabindex="-1" autofocus><p>${error.message}</p>${error.problems === undefined ? '' : html`<ul>${error.problems.slice(0, 50).map((problem) => html`<li>${problem}</li>`)}</ul>`}</div>`;
}
