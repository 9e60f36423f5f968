import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Option, type Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import { AUDIT_EXPORT_FORMATS, auditExportLines, entriesWithin, parseAuditTime, streamRangeOf, type AuditExportFormat, type AuditRange } from '../../governance/audit/audit-export.js';
import { verifyAuditEntries, verifyStoredLog, type AuditVerification } from '../../governance/audit/verify-audit.js';
import { withBatchRuntime } from '../batch-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';

interface ExportFlags extends CommonFlags {
  from?: string;
  to?: string;
  format: AuditExportFormat;
  out?: string;
}

interface VerifyFlags extends CommonFlags {
  file?: string;
  json?: boolean;
}

/**
 * `seatflow audit export|verify`: the audit trail out, for a date range, as JSON Lines or CSV; and the check of its
 * hash chain, in Redis or in an exported file. verify exits 0 when intact, 1 naming the first broken entry.
 */
export function defineAuditCommand(audit: Command): void {
  addCommonOptions(
    audit
      .command('export')
      .description('write the audit trail (or a date range of it) as JSON Lines or CSV')
      .option('--from <date>', 'first day or time, inclusive (2026-11-01 or an ISO time, UTC)')
      .option('--to <date>', 'end, exclusive (2026-12-01 or an ISO time, UTC)')
      .addOption(new Option('--format <format>', 'jsonl (verifiable as exported) or csv').choices(AUDIT_EXPORT_FORMATS).default('jsonl'))
      .option('--out <file>', 'write to this file instead of standard output'),
  ).action(async (flags: ExportFlags) => {
    const range = rangeOf(flags);
    await withBatchRuntime(flags, async (_runtime, batch) => {
      const entries = entriesWithin(batch.governance.audit.entries(streamRangeOf(range)), range);
      const written = await writeLines(auditExportLines(entries, flags.format), flags.out);
      if (flags.out !== undefined) process.stderr.write(`Audit trail: ${written} ${flags.format === 'csv' ? 'lines (with the header)' : 'entries'} written to ${path.resolve(flags.out)}\n`);
    });
  });

  addCommonOptions(
    audit
      .command('verify')
      .description("check the audit trail's hash chain (exit 0 intact; 1 names the first broken entry)")
      .option('--file <export.jsonl>', 'check an exported JSON Lines file instead of the log in Redis')
      .option('--json', 'print the result as JSON'),
  ).action(async (flags: VerifyFlags) => {
    let result: AuditVerification;
    if (flags.file !== undefined) {
      result = await verifyAuditEntries(fileEntries(flags.file), { fromStart: false });
    } else {
      result = await withBatchRuntime(flags, async (_runtime, batch) => {
        return verifyStoredLog(batch.governance.audit, batch.governance.pendingRowEntries);
      });
    }
    process.stdout.write(flags.json === true ? `${JSON.stringify(result)}\n` : describe(result, flags.file));
    process.exitCode = result.ok ? 0 : 1;
  });
}

function rangeOf(flags: ExportFlags): AuditRange {
  try {
    return {
      ...(flags.from === undefined ? {} : { fromMs: parseAuditTime(flags.from, '--from') }),
      ...(flags.to === undefined ? {} : { toMs: parseAuditTime(flags.to, '--to') }),
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function* fileEntries(file: string): AsyncGenerator<{ raw: string; where: string }> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of lines) {
      n += 1;
      if (line.trim() !== '') yield { raw: line, where: `line ${n} of ${file}` };
    }
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function describe(result: AuditVerification, file: string | undefined): string {
  const what = file === undefined ? 'The audit trail' : `The export ${file}`;
  const span = result.first === undefined || result.last === undefined ? '' : ` (entries ${result.first.seq}–${result.last.seq}, ${result.first.at} to ${result.last.at})`;
  if (result.ok) {
    const anchor = result.last === undefined ? '' : `\nLast entry's hash: ${result.last.hash} (keep it elsewhere: a later verify that still reaches it shows nothing before it was rewritten)`;
    const pending = (result.pending ?? 0) === 0 ? '' : `\n${result.pending} row(s) that ended are not in it yet: a running worker appends them within a minute (none runs? start one: seatflow worker).`;
    return `${what} is intact: ${result.entries} entries${span}, each chained to the one before.${anchor}${pending}\n`;
  }
  const broken = result.broken!;
  return `${what} is BROKEN at entry ${broken.seq} (${broken.where}): ${broken.problem}.\n${result.entries} entries before it are intact${span}.\n`;
}

/** Writes chunks to a file or standard output; resolves how many were written. */
async function writeLines(chunks: AsyncIterable<string>, file: string | undefined): Promise<number> {
  if (file !== undefined) await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const out = file === undefined ? process.stdout : createWriteStream(file);
  let count = 0;
  for await (const chunk of chunks) {
    count += 1;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  if (file !== undefined) {
    out.end();
    await once(out, 'finish');
  }
  return count;
}
