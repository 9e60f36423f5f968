/**
 * Characters a terminal acts on instead of showing: C0 controls (NUL, BEL, BS, ESC, CR…), DEL, the C1 controls
 * (U+0080–U+009F, CSI among them), and the bidirectional overrides and isolates, which reorder what follows them on
 * screen.
 */
export function isUnprintable(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

const NAMED: Readonly<Record<number, string>> = { 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

export interface PrintableOptions {
  /** Keep `\n` as a line break: for whole messages whose lines seatflow itself wrote. Default false (one line). */
  keepLineBreaks?: boolean;
}

/**
 * A value as it may be shown to a person: every character a terminal would act on is written as an escape (`\n`,
 * `\u001b`), so a manifest, a service's answer or a file name can never move the cursor, recolour, clear or rewrite
 * the screen around it, nor hide behind a NUL. Idempotent: the escapes are printable text. Every printer of values
 * (plan table, refusals, summaries, status, reports shown on screen) goes through here.
 */
export function printable(text: string, options: PrintableOptions = {}): string {
  const keepLineBreaks = options.keepLineBreaks === true;
  let out: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (!isUnprintable(code) || (keepLineBreaks && code === 0x0a)) continue;
    out = (out ?? '') + text.slice(from, i) + (NAMED[code] ?? `\\u${code.toString(16).padStart(4, '0')}`);
    from = i + 1;
  }
  return out === undefined ? text : out + text.slice(from);
}

/**
 * A template tag that passes every interpolated value through `printable`, leaving the template's own text (its line
 * breaks included) as written: `` out.write(printed`Manifest: ${file}\n`) ``.
 */
export function printed(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i += 1) out += printable(String(values[i])) + (strings[i + 1] ?? '');
  return out;
}
