import path from 'node:path';
import type { CliRuntime } from './cli-runtime.js';

/** Where every sync run writes its plan report: `<dataDir>/sync/`. */
export function syncReportDir(runtime: CliRuntime): string {
  return path.join(runtime.config.dataDir, 'sync');
}
