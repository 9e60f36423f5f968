import { z } from 'zod';

/**
 * A 64-bit identifier as the service sends it: a JSON number. The service issues ids below 2^53, so a JS number
 * holds them exactly; anything beyond is refused rather than silently rounded (docs/service.md#identifiers-and-dates).
 */
export const idSchema = z
  .number()
  .int()
  .refine(Number.isSafeInteger, { message: 'identifier is beyond 2^53 and would lose precision' });

export type Id = z.infer<typeof idSchema>;

/** An id given by a person: a number or a string of digits, as manifests and flags carry them. */
export const idInputSchema = z.union([
  idSchema,
  z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, { message: 'identifier must be digits only' })
    .transform((text, ctx) => {
      const value = Number(text);
      if (!Number.isSafeInteger(value)) {
        ctx.addIssue({ code: 'custom', message: `identifier ${text} is beyond 2^53 and would lose precision` });
        return z.NEVER;
      }
      return value;
    }),
]);

/** ISO-8601 UTC text, or epoch milliseconds when the request asked for numericDates. */
export const timestampSchema = z.union([z.string(), z.number()]);
export type Timestamp = z.infer<typeof timestampSchema>;

/** A timestamp of the wire (ISO text, or epoch ms with numericDates) as epoch ms; undefined when absent or unreadable. */
export function timestampMs(value: Timestamp | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
