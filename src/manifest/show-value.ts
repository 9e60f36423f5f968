import { printable } from '../core/printable.js';

/**
 * A value as a row wrote it, for messages: quoted when it is text, cut when long, and escaped (see `printable`), so a
 * hostile manifest cannot rewrite, on the operator's terminal, the refusal it causes.
 */
export function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value) ?? String(value);
  const shown = printable(text);
  return shown.length > 80 ? `${shown.slice(0, 79)}…` : shown;
}
