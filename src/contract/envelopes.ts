import { z } from 'zod';

/** Error body of every failed call (docs/service.md#errors). The service may leave refId out; the reference server always sends it. */
export const errorBodySchema = z.object({
  errorCode: z.number().int(),
  message: z.string(),
  refId: z.string().optional(),
  detail: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A write's answer: `{message, resultCode, result?}`; some variants use `data` (docs/service.md#envelopes). */
export const writeEnvelopeSchema = z.object({
  message: z.string().optional(),
  resultCode: z.number().int().optional(),
  result: z.unknown().optional(),
  data: z.unknown().optional(),
  version: z.number().optional(),
  failedItems: z.array(z.unknown()).optional(),
});
export type WriteEnvelope = z.infer<typeof writeEnvelopeSchema>;

/** Offset-paged list (IndexResult). pageSize is omitted when includeAll=true; webhooks report -1 totals. */
export function indexResultSchema<T extends z.ZodType>(item: T) {
  return z.object({
    pageNumber: z.number().int(),
    pageSize: z.number().int().optional(),
    totalPages: z.number().int(),
    totalCount: z.number().int(),
    data: z.array(item),
  });
}
export interface IndexResult<T> {
  pageNumber: number;
  pageSize?: number | undefined;
  totalPages: number;
  totalCount: number;
  data: T[];
}

/** Token-paged list (user plans): lastKey only while more remain. */
export function tokenPageSchema<T extends z.ZodType>(item: T) {
  return z.object({ lastKey: z.string().optional(), data: z.array(item) });
}
export interface TokenPage<T> {
  lastKey?: string | undefined;
  data: T[];
}

export const RESULT_CODE = { success: 0, partialSuccess: 3 } as const;
