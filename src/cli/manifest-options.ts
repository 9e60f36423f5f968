import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Option, type Command } from 'commander';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { serviceRegionOf, type Config } from '../core/config.js';
import { ACTION_NAMES, type ActionName } from '../manifest/action.js';
import { MANIFEST_FORMATS, type ManifestFormat } from '../manifest/manifest-format.js';
import { confirmGuardrails, type GuardrailCheck } from '../plan/guardrails.js';
import { planManifest } from '../plan/plan-manifest.js';
import type { CommonFlags } from './common-options.js';
import { createReadProgress } from './read-progress.js';

/** Flags of the commands that read a manifest: plan, run, submit. */
export interface ManifestFlags extends CommonFlags {
  action?: ActionName;
  format?: ManifestFormat;
  skipInvalid?: boolean;
  yes?: boolean;
  files?: string;
  ignoreColumn?: string[];
}

export function addManifestOptions(command: Command): Command {
  return command
    .argument('<manifest>', 'CSV, JSON or JSON Lines file')
    .addOption(new Option('--action <action>', 'the action of rows that name none (a file that is only a list of e-mails)').choices(ACTION_NAMES))
    .addOption(new Option('--format <format>', 'the manifest format (default: by extension or content)').choices(MANIFEST_FORMATS))
    .option('--files <dir>', "the folder the rows' image and file paths are inside (default: the manifest's folder)")
    .option('--ignore-column <name>', 'a CSV column that means nothing here (repeat for several): never read, never refused', collect, [])
    .option('--skip-invalid', 'go on with the valid rows; invalid rows are reported as skipped')
    .option('--yes', 'confirm destructive changes above the guardrails without a prompt');
}

/** Reads, validates and pre-flights the manifest as the flags say, with a progress line on stderr for a large file. */
/**
 * `readAtMs`: now on the service's clock, for a plan that is queued at once (run, submit): its seat rows keep the seats
 * the pre-flight read while that reading stands (PreflightOptions.readAtMs).
 */
export async function planFromFlags(manifestPath: string, flags: ManifestFlags, api: SmartsheetApi, config: Config, readAtMs?: number): ReturnType<typeof planManifest> {
  const progress = createReadProgress();
  try {
    return await planManifest({
      path: manifestPath,
      api,
      guardrails: config.guardrails,
      skipInvalid: flags.skipInvalid === true,
      onRowsRead: (rows) => progress.onRowsRead(rows),
      service: { region: serviceRegionOf(config), externalSources: config.externalSources },
      ...(config.api.viewerSunset === undefined ? {} : { viewerSunset: config.api.viewerSunset }),
      ...(flags.action === undefined ? {} : { defaultAction: flags.action }),
      ...(flags.format === undefined ? {} : { format: flags.format }),
      ...(flags.files === undefined ? {} : { files: { dir: path.resolve(flags.files) } }),
      ...(flags.ignoreColumn === undefined ? {} : { ignoreColumns: flags.ignoreColumn }),
      ...(readAtMs === undefined ? {} : { readAtMs }),
    });
  } finally {
    progress.done();
  }
}

/** Commander's way to let an option repeat: each value is added to the list. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The options that make a batch distinct besides the manifest's bytes (same file, other options: another batch). */
export function batchOptionsOf(flags: ManifestFlags): { action: ActionName | undefined; skipInvalid: boolean; files?: string } {
  // Another files folder may hold other files under the same names: another batch. Absent, ids stay as they were.
  return { action: flags.action, skipInvalid: flags.skipInvalid === true, ...(flags.files === undefined ? {} : { files: path.resolve(flags.files) }) };
}

/**
 * Asks on the terminal when destructive rows exceed the guardrails; --yes confirms; without a terminal (or with
 * `quiet`, e.g. --json) it refuses with a hint.
 */
export async function confirmOnTerminal(check: GuardrailCheck, flags: ManifestFlags, quiet = false): Promise<void> {
  await confirmGuardrails(check, {
    yes: flags.yes === true,
    interactive: !quiet && process.stdin.isTTY === true && process.stderr.isTTY === true,
    ask: async (question) => {
      const prompt = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await prompt.question(question);
      } finally {
        prompt.close();
      }
    },
  });
}
