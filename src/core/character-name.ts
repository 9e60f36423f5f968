import { createRequire } from 'node:module';

type UnicodeName = (character: string) => string | undefined;

let names: UnicodeName | null | undefined;

/**
 * The Unicode name table (the `unicode-name` package, 1.6 MB of data), loaded the first time a character is named:
 * only a refused row pays for it, never a command's start. Node ≥ 20.19 loads an ES module with require(); on an
 * older Node the table is not available and characters are named by their code point alone.
 */
function unicodeName(): UnicodeName | null {
  if (names === undefined) {
    try {
      names = (createRequire(import.meta.url)('unicode-name') as { unicodeName: UnicodeName }).unicodeName;
    } catch {
      names = null;
    }
  }
  return names;
}

/** `U+0430 CYRILLIC SMALL LETTER A`, `U+200B ZERO WIDTH SPACE`: a character as the Unicode standard names it. */
export function describeCharacter(codePoint: number): string {
  const code = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = unicodeName()?.(String.fromCodePoint(codePoint));
  return name === undefined ? code : `${code} ${name}`;
}
