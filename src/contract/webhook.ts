import { z } from 'zod';
import { idSchema, timestampSchema } from './ids.js';
import { WEBHOOK_SCOPES, WEBHOOK_STATUSES } from './enums.js';

export const webhookStatsSchema = z.object({
  lastCallbackAttempt: timestampSchema.optional(),
  lastCallbackAttemptRetryCount: z.number().optional(),
  lastSuccessfulCallback: timestampSchema.optional(),
});

export const webhookSubscopeSchema = z.object({ columnIds: z.array(idSchema).optional() });

/** A webhook (docs/service.md#webhooks). Status values beyond the known list are kept as text, not refused. */
export const webhookSchema = z.object({
  id: idSchema,
  name: z.string().optional(),
  callbackUrl: z.string().optional(),
  scope: z.enum(WEBHOOK_SCOPES).optional(),
  scopeObjectId: idSchema.optional(),
  events: z.array(z.string()).optional(),
  version: z.number().optional(),
  enabled: z.boolean().optional(),
  status: z.union([z.enum(WEBHOOK_STATUSES), z.string()]).optional(),
  disabledDetails: z.string().optional(),
  sharedSecret: z.string().optional(),
  apiClientId: z.string().optional(),
  apiClientName: z.string().optional(),
  createdAt: timestampSchema.optional(),
  modifiedAt: timestampSchema.optional(),
  stats: webhookStatsSchema.optional(),
  subscope: webhookSubscopeSchema.optional(),
  customHeaders: z.record(z.string(), z.string()).optional(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookCreateSchema = z.object({
  name: z.string().min(1),
  callbackUrl: z.string().min(1),
  scope: z.enum(WEBHOOK_SCOPES),
  scopeObjectId: idSchema,
  events: z.array(z.string()).min(1),
  version: z.number().int(),
  subscope: webhookSubscopeSchema.optional(),
  customHeaders: z.record(z.string(), z.string()).optional(),
});
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

export const webhookUpdateSchema = z.object({
  name: z.string().optional(),
  callbackUrl: z.string().optional(),
  events: z.array(z.string()).optional(),
  version: z.number().int().optional(),
  enabled: z.boolean().optional(),
  customHeaders: z.record(z.string(), z.string()).optional(),
});
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

export const webhookSharedSecretSchema = z.object({ sharedSecret: z.string() });
export type WebhookSharedSecret = z.infer<typeof webhookSharedSecretSchema>;
