import { describeCharacter } from '../core/character-name.js';
import { show } from './show-value.js';

/**
 * The first character of an e-mail address that is not printable ASCII: a look-alike letter from another script
 * (Cyrillic `а` for Latin `a`), an invisible one (a zero-width space), a control character or a space. Undefined
 * when there is none.
 */
export function oddCharacterOf(address: string): number | undefined {
  for (const character of address) {
    const code = character.codePointAt(0)!;
    if (code < 0x21 || code > 0x7e) return code;
  }
  return undefined;
}

/**
 * Why a value is refused as an e-mail address, naming the odd character when one is the cause: a look-alike address
 * reads exactly like the real one, so "not a valid e-mail address" alone sends the person hunting. The value is shown
 * escaped (see `show`).
 */
export function emailRefusal(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : String(value);
  const odd = oddCharacterOf(text);
  return `${show(text)} is not a valid e-mail address${odd === undefined ? '' : `: it contains ${describeCharacter(odd)}`}`;
}
