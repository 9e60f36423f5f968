import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { idInputSchema } from '../contract/index.js';
import { UsageError } from '../core/seatflow-error.js';
import { reportFormatOf, writeChunks, type ReportFormat } from '../queue/report-writer.js';
import { describeLiveRead } from '../sync/describe-live-read.js';
import { openLiveOrganization } from '../sync/live-organization.js';
import { needsOf, parseUserExportFields } from '../sync/user-export-fields.js';
import { userExportLines } from '../sync/user-export-lines.js';
import { createBudgetedApi, openBatchRuntime } from './batch-runtime.js';
import { withCliRuntime } from './cli-runtime.js';
import type { CommonFlags } from './common-options.js';

export interface ExportUsersFlags extends CommonFlags {
  format?: ReportFormat;
  fields?: string;
  out?: string;
  plan?: string;
}

/**
 * Reads every user of the live organization and writes them out, one at a time. The plan of calls and every message go
 * to stderr, so that stdout carries only the export. Exit 0 done; 1 the organization changed during the read (users
 * may be missing or repeated); 2 a flag or the token refused; 3 Redis unreachable (the read takes from the request
 * budget that the token's workers share).
 */
export async function exportUsers(flags: ExportUsersFlags): Promise<number> {
  const fields = parseUserExportFields(flags.fields);
  const format = flags.format ?? (flags.out === undefined ? 'csv' : reportFormatOf(flags.out));
  const planIds = flags.plan === undefined ? undefined : planIdsOf(flags.plan);
  const log = process.stderr;
  return withCliRuntime(flags, {}, async (runtime) => {
    const batch = await openBatchRuntime(runtime);
    const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
    log.write(`Target: ${runtime.targetLabel}\n`);
    const live = await openLiveOrganization(api, { needs: needsOf(fields), ...(planIds === undefined ? {} : { planIds }) });
    for (const line of describeLiveRead(live.plan, runtime.config.rateLimit)) log.write(`${line}\n`);
    const started = performance.now();
    const lines = userExportLines(live.users(), fields, format);
    if (flags.out === undefined) await writeChunks(lines, process.stdout);
    else await writeWhole(flags.out, lines);
    const outcome = live.outcome();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const where = flags.out === undefined ? 'stdout' : path.resolve(flags.out);
    log.write(`Exported ${outcome.read.toLocaleString('en-US')} users (${format.toUpperCase()}${runtime.sim ? ', SIMULATION' : ''}) to ${where} in ${live.calls().toLocaleString('en-US')} calls, ${seconds} s.\n`);
    if (outcome.left > 0) log.write(`note: ${outcome.left} users left the organization during the read; they are not in the export.\n`);
    if (!outcome.changedDuringRead) return 0;
    log.write(
      `warning: the organization held ${outcome.expected} users when the read began and ${outcome.read + outcome.left} were listed: ` +
        'it changed during the read, so users may be missing or repeated. Export again when nothing is changing it.\n',
    );
    return 1;
  });
}

function planIdsOf(text: string): number[] {
  return text.split(',').map((part) => {
    const parsed = idInputSchema.safeParse(part.trim());
    if (!parsed.success) throw new UsageError(`--plan: "${part.trim()}" is not a plan id`, 'Give plan ids as digits, comma-separated: --plan 5420192837465012,5420192837465013.');
    return parsed.data;
  });
}

/** The file appears only once complete (written as FILE.partial, then renamed): a half export is never a snapshot. */
async function writeWhole(file: string, chunks: AsyncIterable<string>): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  try {
    await writeChunks(chunks, out);
    out.end();
    await once(out, 'finish');
    await rename(partial, file);
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
