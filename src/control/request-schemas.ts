import { z } from 'zod';
import { stepBatchOf } from '../workflow/retry-step-batch.js';
import { ACTION_NAMES } from '../manifest/action.js';
import { CONTROL_ERROR_CODES, ControlError } from './control-error.js';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes' || value === '')
  .optional();

/** A query parameter that may repeat (`?ignoreColumn=A&ignoreColumn=B`): always a list. */
export const repeatedSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .optional();

/** Query of POST /v1/plans: the `seatflow plan` flags. */
export const planQuerySchema = z.object({
  action: z.enum(ACTION_NAMES).optional(),
  /** `--ignore-column`, once per column. */
  ignoreColumn: repeatedSchema,
  skipInvalid: flag,
  /** Names the manifest in the plan and the batch record. */
  name: z.string().trim().min(1).max(200).optional(),
});

/** `?reason=`: the ticket or reason of a change, kept in the audit trail (the CLI's --reason). */
export const reasonSchema = z.string().trim().min(1).max(500).optional();

/** Query of a change without a body (cancel, retry): the ticket or reason only. */
export const reasonQuerySchema = z.object({ reason: reasonSchema });

/** Query of POST /v1/batches: plan flags plus `confirm`, which plays the role of `--yes`, and `reason`. */
export const submitQuerySchema = planQuerySchema.extend({ confirm: flag, reason: reasonSchema });

export const listQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });

export const outcomesQuerySchema = z.object({ format: z.enum(['jsonl', 'csv']).default('jsonl') });

/**
 * Batch ids: `b` and 12 hex digits (submit-batch's batchIdOf), or an offboarding's step batch (`<offboarding>-remove`,
 * …: the workflow's own `stepBatchOf` says which). Anything else names no batch.
 */
export const batchParamsSchema = z.object({ id: z.string().refine((id) => /^b[0-9a-f]{12}$/.test(id) || stepBatchOf(id) !== undefined) });

/**
 * Change request ids: the id the change will have — a batch, reconciliation run or revert (`b…`), an offboarding
 * (`o…`), or a sync run (`s…`, sync-kind's syncRequestIdOf) — and 12 hex digits.
 */
export const changeRequestParamsSchema = z.object({ id: z.string().regex(/^[bos][0-9a-f]{12}$/) });

/** Offboarding ids are `o` and 12 hex digits (submit-offboarding's workflowIdOf). */
export const offboardingParamsSchema = z.object({ id: z.string().regex(/^o[0-9a-f]{12}$/) });

/** Parses a part of a request at the edge, or answers 400 listing every problem. */
export function parseRequestPart<T extends z.ZodType>(schema: T, value: unknown, part: 'query' | 'params'): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${[part, ...issue.path.map(String)].join('.')}: ${issue.message}`);
  throw new ControlError(400, CONTROL_ERROR_CODES.badRequest, `bad request: ${problems.join('; ')}`, { details: { problems } });
}
