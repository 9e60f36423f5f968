/**
 * Characters a terminal acts on instead of showing: C0 controls (NUL, BEL, BS, ESC, CR…), DEL, the C1 controls
 * (U+0080–U+009F, CSI among them), and the bidirectional overrides and isolates, which reorder what follows them on
 * screen. Built from a string so that the source holds no control character itself.
 */
const UNPRINTABLE = new RegExp('[\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]', 'g');
const UNPRINTABLE_BUT_LINE_BREAKS = new RegExp('[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]', 'g');

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

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
  const pattern = options.keepLineBreaks === true ? UNPRINTABLE_BUT_LINE_BREAKS : UNPRINTABLE;
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  return text.replace(pattern, (character) => NAMED[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
