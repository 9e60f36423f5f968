import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { fileRefusal } from '../../core/file-refusal.js';
import { UsageError } from '../../core/seatflow-error.js';
import { domainMigrationRequestSchema, type DomainMigrationInput } from '../../migrate/domain-migration-request.js';
import type { MigrationInput } from '../../migrate/migration-input.js';
import { webhookMigrationRequestSchema, type WebhookMigrationRequest } from '../../migrate/plan-webhook-migration.js';
import { readUserEmails } from '../../migrate/read-user-emails.js';
import { addCommonOptions } from '../common-options.js';
import { runMigrateCommand, type MigrateFlags } from '../migrate-runtime.js';
import { addRequestOptions } from '../request-options.js';
import { wholeNumber } from '../whole-number.js';

interface DomainFlags extends MigrateFlags {
  from: string;
  to: string;
  users?: string;
  keepOld?: boolean;
  removeOld?: boolean;
  validatedDomains?: string;
  confirmWithin?: string;
}

interface ColumnsFlags extends MigrateFlags {
  sheets: string;
  spec: string;
}

interface WebhooksFlags extends MigrateFlags {
  repoint?: string[];
  rotateSecrets?: boolean;
  secretsTo?: string;
  disableUnused?: string;
}

/** The options every migration takes: apply or only plan, confirm, JSON, wait, and the shared ones. */
function addMigrateOptions(command: Command): Command {
  command
    .option('--apply', 'queue the migration (without it nothing changes: the plan is printed)')
    .option('--yes', 'confirm changes above the guardrails without a prompt')
    .option('--json', 'print the plan as JSON: what each user, sheet or webhook will get')
    .option('--no-wait', 'queue and return without running anything here (a running seatflow worker takes it)');
  return addCommonOptions(addRequestOptions(command));
}

/**
 * `seatflow migrate domain|columns|webhooks`: the migrations ops teams run, each one command that reads live state,
 * prints the plan and (with --apply) runs it through everything a manifest goes through (docs/migrations.md).
 */
export function defineMigrateCommand(command: Command): void {
  addMigrateOptions(
    command
      .command('domain')
      .description('move users from one mail domain to another: add the new address, make it primary (once confirmed), keep or remove the old one')
      .requiredOption('--from <domain>', 'the old domain (users whose primary address is on it)')
      .requiredOption('--to <domain>', 'the new domain')
      .option('--users <file>', 'only these users: one current address a line, or a CSV with an email column')
      .option('--keep-old', 'keep the old address as an alternate (the default: a revert needs it)')
      .option('--remove-old', 'delete the old address once the new one is primary')
      .option('--validated-domains <list>', 'the domains validated for your plan (Admin Center → Domain management), comma-separated: the API does not tell them')
      .option('--confirm-within <days>', 'how long to wait for owners to confirm their new address (default 14)'),
  ).action(async (flags: DomainFlags) => {
    process.exitCode = await runMigrateCommand(flags, () => domainInputOf(flags));
  });
  addMigrateOptions(
    command
      .command('columns')
      .description('bring many sheets\' columns to a standard: add missing ones, rename, change type and options, delete extras if the standard says so')
      .requiredOption('--sheets <file>', 'the sheets: one sheet id a line, or a CSV with a sheetId column')
      .requiredOption('--spec <file>', 'the standard (JSON), see jobs/examples/column-standard.json'),
  ).action(async (flags: ColumnsFlags) => {
    process.exitCode = await runMigrateCommand(flags, () => columnsInputOf(flags));
  });
  addMigrateOptions(
    command
      .command('webhooks')
      .description('re-point webhooks\' callback URLs, rotate their shared secrets, or turn off those unused for N days')
      .option('--repoint <prefixes...>', 'FROM_URL_PREFIX TO_URL_PREFIX: callback URLs starting with the first start with the second (verified again)')
      .option('--rotate-secrets', 'a new shared secret for every webhook, written only to --secrets-to')
      .option('--secrets-to <file>', 'with --rotate-secrets: the file the new secrets are appended to (JSON lines, mode 0600)')
      .option('--disable-unused <days>', 'turn off the webhooks whose last callback is older than this many days'),
  ).action(async (flags: WebhooksFlags) => {
    process.exitCode = await runMigrateCommand(flags, () => Promise.resolve({ migration: 'webhooks', request: webhooksRequestOf(flags) }));
  });
}

async function domainInputOf(flags: DomainFlags): Promise<MigrationInput> {
  if (flags.keepOld === true && flags.removeOld === true) throw new UsageError('--keep-old and --remove-old ask for opposite things', 'Give one of them (keeping is the default).');
  const input: DomainMigrationInput = {
    from: flags.from,
    to: flags.to,
    oldAddress: flags.removeOld === true ? 'remove' : 'keep',
    ...(flags.users === undefined ? {} : { users: await readUserEmails(flags.users), usersFile: flags.users }),
    ...(flags.validatedDomains === undefined ? {} : { validatedDomains: flags.validatedDomains.split(',').map((domain) => domain.trim()).filter((domain) => domain !== '') }),
    ...(flags.confirmWithin === undefined ? {} : { confirmWithinDays: wholeNumber('--confirm-within', flags.confirmWithin, 1) }),
  };
  const parsed = domainMigrationRequestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const option = { from: '--from', to: '--to', validatedDomains: '--validated-domains', confirmWithinDays: '--confirm-within' }[String(issue?.path[0] ?? '')] ?? String(issue?.path[0] ?? '');
    throw new UsageError(`${option} ${issue?.message ?? 'is not valid'}`, 'Domains are written as acme.io; see seatflow migrate domain --help.');
  }
  return { migration: 'domain', request: parsed.data };
}

async function columnsInputOf(flags: ColumnsFlags): Promise<MigrationInput> {
  const read = async (file: string, what: string) => {
    try {
      return await readFile(file);
    } catch (error) {
      throw fileRefusal(what, file, error);
    }
  };
  const [sheets, spec] = await Promise.all([read(flags.sheets, 'sheets file'), read(flags.spec, 'column standard')]);
  return { migration: 'columns', sheetsFile: flags.sheets, sheetsBase64: sheets.toString('base64'), specFile: flags.spec, specBase64: spec.toString('base64') };
}

function webhooksRequestOf(flags: WebhooksFlags): WebhookMigrationRequest {
  const modes = [flags.repoint !== undefined, flags.rotateSecrets === true, flags.disableUnused !== undefined].filter(Boolean).length;
  const hint = 'Give one of --repoint FROM TO, --rotate-secrets --secrets-to FILE, --disable-unused DAYS.';
  if (modes !== 1) throw new UsageError(modes === 0 ? 'nothing to do' : 'one webhook migration at a time', hint);
  let request: unknown;
  if (flags.repoint !== undefined) {
    if (flags.repoint.length !== 2) throw new UsageError('--repoint takes two URL prefixes: the old one, then the new one', hint);
    request = { mode: 'repoint', from: flags.repoint[0], to: flags.repoint[1] };
  } else if (flags.rotateSecrets === true) {
    if (flags.secretsTo === undefined) throw new UsageError('--rotate-secrets needs --secrets-to FILE: the new secrets are written there and nowhere else (never printed)', hint);
    request = { mode: 'rotate-secrets', secretsTo: path.resolve(flags.secretsTo) };
  } else {
    request = { mode: 'disable-unused', days: wholeNumber('--disable-unused', flags.disableUnused ?? '', 1) };
  }
  const parsed = webhookMigrationRequestSchema.safeParse(request);
  if (!parsed.success) throw new UsageError(`--repoint ${parsed.error.issues.map((issue) => `${String(issue.path[0])} ${issue.message}`).join('; ')}`, hint);
  return parsed.data;
}
