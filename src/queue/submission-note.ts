/**
 * What a batch still `submitting` tells whoever looks at it (`status`, the dashboard). Its submitter queues the rows,
 * then marks it queued, and no outcome can finish it before: a submitter that stopped half-way (killed, Redis gone)
 * leaves it so, and the same submission again picks up where it stopped (submit-batch.ts).
 */
export const STILL_SUBMITTING_NOTE =
  'still being submitted; if the command or request that submitted it stopped, submit the same file again with the same options: it queues the rest, nothing twice';
