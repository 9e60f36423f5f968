import type { ColumnType } from '../../contract/index.js';
import type { CellValue } from '../state/records.js';
import { EMAIL_ADDRESS } from './email-domains.js';

/**
 * What a cell becomes when its column changes type (docs/service.md#columns). Values that fit the new
 * type take its shape; values that do not are kept as text, as the real service keeps them rather than dropping
 * data.
 */
function asText(value: CellValue): string {
  if (value === null) return '';
  if (Array.isArray(value)) return value.map((v) => asText(v as CellValue)).join(', ');
  if (typeof value === 'object') return value.name ?? value.email;
  return String(value);
}

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:T.*)?$/;
const TRUE_TEXT = new Set(['true', 'yes', '1', 'checked', 'x']);
const FALSE_TEXT = new Set(['false', 'no', '0', 'unchecked', '']);

export function convertCell(value: CellValue, to: ColumnType): CellValue {
  if (value === null || value === undefined) return null;
  const text = asText(value).trim();
  switch (to) {
    case 'TEXT_NUMBER': {
      if (typeof value === 'number') return value;
      return text !== '' && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    }
    case 'CHECKBOX': {
      if (typeof value === 'boolean') return value;
      const lower = text.toLowerCase();
      if (TRUE_TEXT.has(lower)) return true;
      if (FALSE_TEXT.has(lower)) return false;
      return text;
    }
    case 'DATE':
    case 'DATETIME':
    case 'ABSTRACT_DATETIME': {
      const match = ISO_DATE.exec(text);
      return match ? (to === 'DATE' ? (match[1] ?? text) : text) : text;
    }
    case 'CONTACT_LIST': {
      if (typeof value === 'object' && !Array.isArray(value)) return value;
      const first = Array.isArray(value) ? (value[0] as CellValue) : value;
      const firstText = asText(first ?? null).trim();
      return EMAIL_ADDRESS.test(firstText) ? { email: firstText } : text;
    }
    case 'MULTI_CONTACT_LIST': {
      const parts = Array.isArray(value) ? value.map((v) => asText(v as CellValue)) : text.split(/[,;]/);
      const emails = parts.map((p) => p.trim()).filter((p) => p !== '');
      return emails.every((e) => EMAIL_ADDRESS.test(e)) && emails.length > 0 ? emails.map((email) => ({ email })) : text;
    }
    case 'MULTI_PICKLIST': {
      const parts = Array.isArray(value) ? value.map((v) => asText(v as CellValue)) : text.split(',');
      return parts.map((p) => p.trim()).filter((p) => p !== '');
    }
    case 'PICKLIST':
    case 'DURATION':
    case 'PREDECESSOR':
      return text;
    default:
      return text;
  }
}
