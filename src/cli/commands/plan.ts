import type { Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import { planLines } from '../../plan/format-plan.js';
import { ManifestRefusedError } from '../../plan/manifest-refused-error.js';
import { withCliRuntime } from '../cli-runtime.js';
import { writeJson, writeLines } from '../write-text.js';
import { addCommonOptions } from '../common-options.js';
import { addManifestOptions, confirmOnTerminal, planFromFlags, type ManifestFlags } from '../manifest-options.js';
import { printed } from '../../core/printable.js';

interface PlanFlags extends ManifestFlags {
  json?: boolean;
}

/** `seatflow plan MANIFEST`: validate and pre-flight a manifest, print what would happen to whom. Changes nothing. */
export function definePlanCommand(command: Command): void {
  command
    .option('--json', 'print the plan as JSON');
  addCommonOptions(addManifestOptions(command)).action(async (manifestPath: string, flags: PlanFlags) => {
    process.exitCode = await runPlan(manifestPath, flags);
  });
}

async function runPlan(manifestPath: string, flags: PlanFlags): Promise<number> {
  try {
    return await withCliRuntime(flags, {}, async (runtime) => {
      const { plan, guardrails, manifest } = await planFromFlags(manifestPath, flags, runtime.api, runtime.config);
      const out = process.stdout;
      if (flags.json === true) {
        // Row by row: a million-row plan is never one string (it was 350 MB, and the plan's largest allocation).
        await writeJson(out, { target: runtime.targetLabel, ...plan, guardrails, warnings: manifest.warnings });
      } else {
        out.write(printed`Target: ${runtime.targetLabel}\nManifest: ${plan.source.path} (${plan.source.format}, sha256 ${plan.source.sha256.slice(0, 12)})\n`);
        for (const warning of manifest.warnings) out.write(printed`note: ${warning}\n`);
        out.write('\n');
        await writeLines(out, planLines(plan, { width: out.columns, rate: runtime.config.rateLimit }));
        out.write('Nothing was changed.\n');
        if (guardrails.needsConfirmation) out.write(printed`guardrail: ${guardrails.reasons.join('; ')}\n`);
      }
      await confirmOnTerminal(guardrails, flags, flags.json === true);
      return 0;
    });
  } catch (error) {
    // With --json a refusal is data too, so scripts get every problem on stdout.
    if (flags.json === true && error instanceof UsageError) {
      const problems = error instanceof ManifestRefusedError ? error.problems : [];
      process.stdout.write(`${JSON.stringify({ refused: true, message: error.message, hint: error.hint, problems }, null, 2)}\n`);
      return 2;
    }
    throw error;
  }
}
