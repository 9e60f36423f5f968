import type { ReplicatedWrites } from './replicated-write.js';

/** What a submission answers: whether this call created what it submitted (false: it had been submitted before). */
export interface Submission {
  created: boolean;
}

export interface ReplicatedSubmissionOptions<T extends Submission> {
  writes: ReplicatedWrites;
  /** A key the submission writes (its record): on a cluster, WAIT asks that key's node. */
  routeKey: string;
  /** The submission, idempotent by its id: made again, it finds its own records and creates only what is missing. */
  submit: () => Promise<T>;
  /** Whether the records an answer found "existed already" were made by this call (by an attempt cut off). */
  madeByThisCall: (answer: T) => boolean;
}

/**
 * A submission the operator is told about ("queued"), made again until a replica holds it: a planned failover's old
 * master drops what it took after its replica's last copy, and the batch or workflow would vanish after the answer.
 * The answer is the first finished attempt's and is kept: a repeat finds the records the first made and would answer
 * "existed already" for what this call has just queued; repeats only make sure the records exist on the master a
 * replica holds. An attempt cut off by the failover (its connection dropped) answers nothing, and may have made the
 * records the next attempt finds: the caller tells them by what it wrote (its creation time). With no replica to take
 * it in time, it is refused (NoReplicaError, 503 on the API), never acknowledged on the master alone.
 */
export async function replicatedSubmission<T extends Submission>(options: ReplicatedSubmissionOptions<T>): Promise<T> {
  let answer: T | undefined;
  let cutOff = false;
  await options.writes.write(options.routeKey, async () => {
    let attempt: T;
    try {
      attempt = await options.submit();
    } catch (error) {
      if (answer === undefined) cutOff = true;
      throw error;
    }
    answer ??= cutOff && !attempt.created && options.madeByThisCall(attempt) ? { ...attempt, created: true } : attempt;
  }, { required: true });
  // Replicas were found missing meanwhile and the writes stopped waiting right after an attempt that was cut off.
  if (answer === undefined) throw new Error('the submission was cut off by a Redis failover and not made again: submit it again');
  return answer;
}
