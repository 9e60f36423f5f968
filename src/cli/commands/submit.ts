import { createInterface } from 'node:readline/promises';
import { Option, type Command } from 'commander';
import { ACTION_NAMES, type ActionName } from '../../manifest/action.js';
import { confirmGuardrails } from '../../plan/guardrails.js';
import { planManifest } from '../../plan/plan-manifest.js';
import { createBudgetedApi, openBatchRuntime } from '../batch-runtime.js';
import { countsLine } from '../batch-summary.js';
import { createCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, overridesFromFlags, type CommonFlags } from '../common-options.js';

interface SubmitFlags extends CommonFlags {
  action?: ActionName;
  skipInvalid?: boolean;
  yes?: boolean;
  json?: boolean;
}

/** `seatflow submit MANIFEST`: plan and queue a batch for `seatflow worker` processes; prints the batch id. */
export function registerSubmitCommand(program: Command): void {
  const command = program
    .command('submit')
    .description('plan a manifest and queue it as a batch for workers; submitting the same file again finds the batch')
    .argument('<manifest>', 'CSV, JSON or JSON Lines file')
    .addOption(new Option('--action <action>', 'the action of rows that name none').choices(ACTION_NAMES))
    .option('--skip-invalid', 'go on with the valid rows; invalid rows are reported as skipped')
    .option('--yes', 'confirm destructive changes above the guardrails without a prompt')
    .option('--json', 'print the batch record as JSON');
  addCommonOptions(command).action(async (manifest: string, flags: SubmitFlags) => {
    const runtime = await createCliRuntime({
      sim: flags.sim === true,
      ...(flags.config === undefined ? {} : { configFile: flags.config }),
      flags: overridesFromFlags(flags),
    });
    try {
      const batchRuntime = await openBatchRuntime(runtime);
      const { api } = createBudgetedApi(runtime, batchRuntime);
      const { plan, guardrails } = await planManifest({
        path: manifest,
        api,
        guardrails: runtime.config.guardrails,
        skipInvalid: flags.skipInvalid === true,
        ...(flags.action === undefined ? {} : { defaultAction: flags.action }),
      });
      await confirmGuardrails(guardrails, {
        yes: flags.yes === true,
        interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
        ask: async (question) => {
          const prompt = createInterface({ input: process.stdin, output: process.stderr });
          try {
            return await prompt.question(question);
          } finally {
            prompt.close();
          }
        },
      });
      const result = await batchRuntime.system.submit(plan, { options: { action: flags.action, skipInvalid: flags.skipInvalid === true } });
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify({ ...result.batch, created: result.created, jobsAdded: result.jobsAdded, target: runtime.targetLabel })}\n`);
      } else {
        process.stdout.write(`Target: ${runtime.targetLabel}\n`);
        process.stdout.write(
          result.created
            ? `Batch ${result.batch.id} submitted: ${result.jobsAdded} rows queued (${countsLine(result.batch)})\n`
            : `Batch ${result.batch.id} already exists (state ${result.batch.state}): nothing queued twice\n`,
        );
        if (runtime.sim) {
          process.stdout.write('SIMULATION: this embedded reference server stops when submit exits; use `seatflow run --sim`, or `seatflow sim` with SMARTSHEET_API_BASE, for split commands.\n');
        }
        process.stdout.write(`Process it with: seatflow worker   Watch it with: seatflow status ${result.batch.id}\n`);
      }
    } finally {
      await runtime.close();
    }
  });
}
