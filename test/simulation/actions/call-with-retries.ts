import type { ControlAnswer } from '../world/control-api.js';

/**
 * Calls the control API as a patient operator does: a server that cannot be reached (restarting) or that says Redis
 * or the target is unavailable for now (503) is asked again, a few times, a second apart. Any other answer, refusals
 * included, is returned as it is.
 */
export async function callWithRetries(call: () => Promise<ControlAnswer>, attempts = 8): Promise<ControlAnswer> {
  let last: ControlAnswer | undefined;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      last = await call();
      if (last.status !== 503) return last;
    } catch (error) {
      last = { status: 0, body: undefined, text: error instanceof Error ? error.message : String(error) };
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return last!;
}

/** "503 REDIS_UNAVAILABLE: Redis does not answer" — an answer for a trace line. */
export function describeAnswer(answer: ControlAnswer): string {
  const error = (answer.body as { error?: { code?: string; message?: string } } | undefined)?.error;
  return error === undefined ? `${answer.status}` : `${answer.status} ${error.code ?? ''}: ${error.message ?? ''}`.trim();
}
