import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Folders whose files each run for a minute or more (whole-system simulations, a browser, fleets of processes, image
 * and package builds) while holding one of the few forks.
 */
const LONG_RUNNING = ['simulation', 'browser', 'fleet', 'deploy', 'package'].map((folder) => `${path.sep}test${path.sep}${folder}${path.sep}`);

/**
 * Starts the long-running files first. Vitest orders files by the durations it cached from the last run, and without
 * that cache (a clean clone, CI) by size, largest first: the simulation's seed files are a few lines each, so they
 * started last and the run ended on them (in a clean-clone run, the last file to finish was seed 20's, 66 s long).
 * Within each group, Vitest's own order holds.
 */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = (file: TestSpecification) => LONG_RUNNING.some((folder) => file.moduleId.includes(folder));
    return [...sorted.filter(long), ...sorted.filter((file) => !long(file))];
  }
}
