import { html, type SafeHtml } from './html.js';
import { ANNOUNCER_ID } from './layout.js';

/**
 * News for the page's live region (layout.ts), carried out of band in a live part's answer: htmx puts the text into
 * the one `role="status"` element the page keeps, so that screen readers read it once. Only news is sent: `key` names
 * what the text says (e.g. `running:40`, a state and a tenth of the rows) and `announced` the key the page already
 * showed (the live part asks with it), so that the same progress is never read out again at every refresh.
 */
export function announcement(key: string, announced: string | undefined, text: string): SafeHtml {
  if (key === announced) return html``;
  return html`<div id="${ANNOUNCER_ID}" hx-swap-oob="innerHTML">${text}</div>`;
}
