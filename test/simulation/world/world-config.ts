import os from 'node:os';

/** The people of the simulated organization who act on seatflow, each with their own control API token. */
export const OPERATORS = {
  hr: { name: 'hr-desk', role: 'operator', token: 'sim-operator-hr-desk-0123456789abcdef0123' },
  ops: { name: 'it-ops', role: 'operator', token: 'sim-operator-it-ops-0123456789abcdef01234' },
  approver: { name: 'approver', role: 'approver', token: 'sim-operator-approver-0123456789abcdef01' },
} as const;

export const CONTROL_TOKEN = 'sim-control-token-0123456789abcdef0123456789';

/** Rows at once per worker process, and how fast the periodic machinery looks (issue 26's 0.5 s). */
export const WORKER_TUNING = { concurrency: 4, lostRowCheckMs: 500, dueSweepMs: 500, stepPollMs: 250 };

/**
 * The service's rate limit in the simulation, and the client's timeouts: a "slow answer" fault delays answers past
 * `headersMs`, so the change lands after the client gave up on it.
 */
export const SERVICE_LIMIT = { requests: 3000, perSeconds: 60 };
export const CLIENT_TIMEOUTS = { connectMs: 2000, headersMs: 2500, bodyMs: 2500 };

/** Offboardings and syncs of more destructive rows than this wait for a second person's approval. */
export const APPROVAL_DESTRUCTIVE_ABOVE = 4;

/**
 * The config file every seatflow process of the simulation reads: fast periodic checks (so that a sweep that acts
 * early does so within the run), short locks (a killed worker's rows move on within seconds), a retry policy that
 * outlasts a fault storm, named operators, an approvals policy, and a callback tolerance for a clock that runs fast.
 */
export function worldConfig(options: { controlPort: number; syncPolicyDir: string }): Record<string, unknown> {
  const osUser = os.userInfo().username;
  return {
    api: { timeouts: CLIENT_TIMEOUTS },
    worker: { concurrency: WORKER_TUNING.concurrency, lockDurationMs: 3000, stalledIntervalMs: 1000, shutdownGraceMs: 2000, lostRowCheckMs: WORKER_TUNING.lostRowCheckMs },
    retry: { maxAttempts: 30, maxElapsedMs: 180_000, baseDelayMs: 100, maxDelayMs: 1000 },
    rateLimit: { requests: SERVICE_LIMIT.requests, perSeconds: SERVICE_LIMIT.perSeconds, headroom: 0 },
    redis: { giveUpAfterMs: 60_000 },
    guardrails: { destructiveMaxCount: 1000, destructiveMaxShare: 1, protectedAccounts: ['admin@acme.example'], maxRows: 100_000 },
    offboarding: { stepPollMs: WORKER_TUNING.stepPollMs, dueSweepMs: WORKER_TUNING.dueSweepMs, defaultHoldDays: 1, minHoldHours: 24 },
    // The service clock moves an hour per 150 ms of wall time: a callback's timestamp is hours from serve's estimate of
    // it by the time it is checked. Two days keeps the check (a replay from before the run is still refused).
    // The reference server sends a callback 250 ms after its first event (the real service gathers a minute's): a row
    // whose answer was lost waits 20 s for the event of its change, not the default two minutes, before sending again.
    events: { toleranceSeconds: 2 * 86_400, lostAnswerWaitSeconds: 20 },
    control: { token: CONTROL_TOKEN, port: options.controlPort, host: '127.0.0.1', syncPolicyDir: options.syncPolicyDir, rateLimit: { max: 100_000, perSeconds: 60 } },
    governance: {
      operators: Object.values(OPERATORS).map((operator) => ({ ...operator, osUsers: [osUser] })),
      approvals: { destructiveAbove: APPROVAL_DESTRUCTIVE_ABOVE, kinds: [] },
    },
  };
}
