import { z } from 'zod';
import { invalidArgument } from './error-factory.js';

/**
 * Checks of the caller's arguments, made before anything is sent (docs/service.md#errors: "a required argument is null or an
 * empty string" → InvalidArgument). Callers from plain JavaScript can pass anything, so the checks do not trust types.
 */
export function requireId(operation: string, name: string, value: unknown): number {
  if (value === null || value === undefined || value === '') throw invalidArgument(operation, `${name} is required`);
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw invalidArgument(operation, `${name} must be a positive integer id, got ${JSON.stringify(value)}`);
  }
  if (!Number.isSafeInteger(value)) {
    throw invalidArgument(operation, `${name} ${value} is beyond 2^53 and has already lost precision; pass ids the service sent`);
  }
  return value;
}

/** Validates a body or option object against its wire schema; the issues become the message. */
export function requireValid<S extends z.ZodType>(operation: string, name: string, schema: S, value: unknown): z.output<S> {
  if (value === null || value === undefined) throw invalidArgument(operation, `${name} is required`);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidArgument(operation, `${name} is invalid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function requireNonEmptyList<T>(operation: string, name: string, value: readonly T[] | null | undefined): readonly T[] {
  if (!Array.isArray(value) || value.length === 0) throw invalidArgument(operation, `${name} must be a non-empty list`);
  return value;
}

/** Paging and limits: positive integers when given. */
export function optionalPositiveInt(operation: string, name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) throw invalidArgument(operation, `${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Builds `/seg/{id}/seg…` from literal segments (lower-case on the wire, docs/service.md#transport) and checked ids. */
export function pathOf(...segments: ReadonlyArray<string | number>): string {
  return `/${segments.map((segment) => (typeof segment === 'number' ? String(segment) : segment.toLowerCase())).join('/')}`;
}
