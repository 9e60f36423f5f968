import type { SeatflowResult } from '../../helpers/run-seatflow.js';
import type { World } from '../world/start-world.js';

/**
 * Runs a submitting command as an operator does when it exits 3 (Redis unavailable, or refused as not acknowledged:
 * no Redis replica took the submission, which may still be kept): again, a few times, as its message says is safe. `refusedFirst`: a try
 * was refused so, and a submission a later try finds ("queued before") is then this one's, acknowledged now.
 * `refused`: the first such answer (its stdout has the plan shown, its stderr may name what may still run).
 */
export async function cliUntilAcknowledged(world: Pick<World, 'cli'>, args: string[]): Promise<{ result: SeatflowResult; refusedFirst: boolean; refused?: SeatflowResult }> {
  let result = await world.cli(args);
  let refused: SeatflowResult | undefined;
  // Exit 3 is Redis unavailable or not acknowledged: either way what the command submitted may be kept, and the
  // README's answer is to run it again (a revert whose Redis failed over under it ran as no plan promised: seed 6312).
  for (let again = 0; again < 3 && result.code === 3; again += 1) {
    refused ??= result;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    result = await world.cli(args);
  }
  return { result, refusedFirst: refused !== undefined, ...(refused === undefined ? {} : { refused }) };
}
