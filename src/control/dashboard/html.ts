import { printable } from '../../core/printable.js';

/** HTML that has been escaped or built from escaped parts; anything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = SafeHtml | string | number | boolean | undefined | null | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return '';
  if (part instanceof SafeHtml) return part.text;
  if (Array.isArray(part)) return part.map((item: Part) => render(item)).join('');
  // Shown as escapes, as on the command line: a bidirectional override in a name or a manifest's value would reorder
  // what follows it on the page, and control characters have no place in HTML text.
  return escapeHtml(printable(String(part), { keepLineBreaks: true }));
}

/**
 * Tagged template for the dashboard's server-rendered pages: every value is escaped unless it is already SafeHtml,
 * so that names, e-mails and messages from manifests and the service cannot inject markup, nor reorder or hide text
 * (core/printable.ts).
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}
