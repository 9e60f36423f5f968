import { html, type SafeHtml } from '../html.js';

/** The page of a section this server was started without (its navigation entry is hidden too). */
export function notAvailablePage(what: string, why: string): SafeHtml {
  return html`<section class="narrow"><h1>${what}</h1><p class="note" role="note">${what} are not available on this server: ${why}</p><p><a href="/batches">Back to the batches</a></p></section>`;
}
