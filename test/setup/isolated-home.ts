import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * No test may read or write the real seatflow home (the platform's state directory): every command a test starts
 * without naming a home of its own lands in a folder of this run, removed at the end. Set here, before the test
 * processes start, so they and every process they spawn inherit it; a home set in the developer's shell is dropped.
 */
export default function isolateSeatflowHome(): () => void {
  const stateHome = mkdtempSync(path.join(os.tmpdir(), 'seatflow-test-state-'));
  process.env.XDG_STATE_HOME = stateHome;
  delete process.env.SEATFLOW_HOME;
  delete process.env.SEATFLOW_DATA_DIR;
  delete process.env.SEATFLOW_LOG_FILE;
  delete process.env.SEATFLOW_LOG_FORMAT;
  return () => rmSync(stateHome, { recursive: true, force: true });
}
