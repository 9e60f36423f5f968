import { createInterface } from 'node:readline/promises';
import { Option, type Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import { ACTION_NAMES, type ActionName } from '../../manifest/action.js';
import { MANIFEST_FORMATS, type ManifestFormat } from '../../manifest/manifest-format.js';
import { formatPlan } from '../../plan/format-plan.js';
import { confirmGuardrails } from '../../plan/guardrails.js';
import { ManifestRefusedError } from '../../plan/manifest-refused-error.js';
import { planManifest } from '../../plan/plan-manifest.js';
import { createCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, overridesFromFlags, type CommonFlags } from '../common-options.js';

interface PlanFlags extends CommonFlags {
  action?: ActionName;
  format?: ManifestFormat;
  skipInvalid?: boolean;
  json?: boolean;
  yes?: boolean;
}

/** `seatflow plan MANIFEST`: validate and pre-flight a manifest, print what would happen to whom. Changes nothing. */
export function registerPlanCommand(program: Command): void {
  const command = program
    .command('plan')
    .description('validate a manifest and check every row against live state; prints the plan, changes nothing')
    .argument('<manifest>', 'CSV, JSON or JSON Lines file')
    .addOption(new Option('--action <action>', 'the action of rows that name none (a file that is only a list of e-mails)').choices(ACTION_NAMES))
    .addOption(new Option('--format <format>', 'the manifest format (default: by extension or content)').choices(MANIFEST_FORMATS))
    .option('--skip-invalid', 'go on with the valid rows; invalid rows are reported as skipped')
    .option('--json', 'print the plan as JSON')
    .option('--yes', 'confirm destructive changes above the guardrails without a prompt');
  addCommonOptions(command).action(async (manifestPath: string, flags: PlanFlags) => {
    process.exitCode = await runPlan(manifestPath, flags);
  });
}

async function runPlan(manifestPath: string, flags: PlanFlags): Promise<number> {
  const runtime = await createCliRuntime({
    sim: flags.sim === true,
    ...(flags.config === undefined ? {} : { configFile: flags.config }),
    flags: overridesFromFlags(flags),
  });
  try {
    const planned = await planManifest({
      path: manifestPath,
      api: runtime.api,
      guardrails: runtime.config.guardrails,
      skipInvalid: flags.skipInvalid === true,
      ...(flags.action === undefined ? {} : { defaultAction: flags.action }),
      ...(flags.format === undefined ? {} : { format: flags.format }),
    });
    const { plan, guardrails, manifest } = planned;
    if (flags.json === true) {
      process.stdout.write(`${JSON.stringify({ target: runtime.targetLabel, ...plan, guardrails, warnings: manifest.warnings }, null, 2)}\n`);
    } else {
      process.stdout.write(`Target: ${runtime.targetLabel}\nManifest: ${plan.source.path} (${plan.source.format}, sha256 ${plan.source.sha256.slice(0, 12)})\n`);
      for (const warning of manifest.warnings) process.stdout.write(`note: ${warning}\n`);
      process.stdout.write(`\n${formatPlan(plan, { width: process.stdout.columns ?? 160 })}`);
      process.stdout.write('Nothing was changed.\n');
      if (guardrails.needsConfirmation) process.stdout.write(`guardrail: ${guardrails.reasons.join('; ')}\n`);
    }
    const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true && flags.json !== true;
    await confirmGuardrails(guardrails, {
      yes: flags.yes === true,
      interactive,
      ask: async (question) => {
        const prompt = createInterface({ input: process.stdin, output: process.stderr });
        try {
          return await prompt.question(question);
        } finally {
          prompt.close();
        }
      },
    });
    return 0;
  } catch (error) {
    if (flags.json === true && error instanceof UsageError) {
      const problems = error instanceof ManifestRefusedError ? error.problems : [];
      process.stdout.write(`${JSON.stringify({ refused: true, message: error.message, hint: error.hint, problems }, null, 2)}\n`);
      return 2;
    }
    throw error;
  } finally {
    await runtime.close();
  }
}
