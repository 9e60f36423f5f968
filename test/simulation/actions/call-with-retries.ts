import type { ControlAnswer } from '../world/control-api.js';

/**
 * Calls the control API as a patient operator does: a server that cannot be reached (restarting) or that says Redis
 * or the target is unavailable for now (503) is asked again, a few times, a second apart. Any other answer, refusals
 * included, is returned as it is.
 */
export async function callWithRetries(call: () => Promise<ControlAnswer>, attempts = 8): Promise<RetriedAnswer> {
  let last: ControlAnswer | undefined;
  let unacknowledged: ControlAnswer | undefined;
  let cutOff = false;
  const answer = (): RetriedAnswer => ({ ...last!, ...(unacknowledged === undefined ? {} : { unacknowledged }), ...(cutOff ? { cutOff } : {}) });
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    cutOff ||= last !== undefined;
    try {
      last = await call();
      if (errorOf(last)?.code === 'REDIS_NO_REPLICA') unacknowledged ??= last;
      if (last.status !== 503) return answer();
    } catch (error) {
      last = { status: 0, body: undefined, text: error instanceof Error ? error.message : String(error) };
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return answer();
}

/**
 * The last answer, and the first that refused the submission as not acknowledged (503 REDIS_NO_REPLICA: no Redis
 * replica took it; the master may still run it). Its error names the submission and shows its plan: a later answer
 * "existed already" is then this submission's, acknowledged. `cutOff`: an earlier try got a 503 or no answer, so
 * what a later try finds existing may be that try's.
 */
export type RetriedAnswer = ControlAnswer & { unacknowledged?: ControlAnswer; cutOff?: boolean };

/** The plan a REDIS_NO_REPLICA refusal showed, with the id it names, or undefined. */
export function unacknowledgedPlan<P>(answer: RetriedAnswer, idField: 'batchId' | 'offboardingId'): { id: string; plan: P } | undefined {
  const error = answer.unacknowledged === undefined ? undefined : (errorOf(answer.unacknowledged) as Record<string, unknown> | undefined);
  const id = error?.[idField];
  return typeof id === 'string' && error?.plan !== undefined ? { id, plan: error.plan as P } : undefined;
}

function errorOf(answer: ControlAnswer): { code?: string } | undefined {
  return (answer.body as { error?: { code?: string } } | undefined)?.error;
}

/** "503 REDIS_UNAVAILABLE: Redis does not answer" — an answer for a trace line. */
export function describeAnswer(answer: ControlAnswer): string {
  const error = (answer.body as { error?: { code?: string; message?: string } } | undefined)?.error;
  return error === undefined ? `${answer.status}` : `${answer.status} ${error.code ?? ''}: ${error.message ?? ''}`.trim();
}
