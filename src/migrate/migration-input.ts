import { z } from 'zod';
import { domainMigrationRequestSchema } from './domain-migration-request.js';
import { webhookMigrationRequestSchema } from './plan-webhook-migration.js';

/**
 * What a migration is planned from, whoever plans it (the command line, the dashboard's form, an approver's process
 * re-planning a request): the domain migration's request, the column migration's two files as they were read (so an
 * approver plans exactly those bytes), or the webhook migration's request.
 */
export const migrationInputSchema = z.discriminatedUnion('migration', [
  z.object({ migration: z.literal('domain'), request: domainMigrationRequestSchema }),
  z.object({
    migration: z.literal('columns'),
    sheetsFile: z.string(),
    sheetsBase64: z.string(),
    specFile: z.string(),
    specBase64: z.string(),
  }),
  z.object({ migration: z.literal('webhooks'), request: webhookMigrationRequestSchema }),
]);
export type MigrationInput = z.output<typeof migrationInputSchema>;
export type MigrationKind = MigrationInput['migration'];
