import path from 'node:path';
import { holdOf } from '../../workflow/hold-duration.js';
import type { OffboardingOptions, OffboardingPlan } from '../../workflow/plan-offboarding.js';
import type { LeaversColumnChoices } from '../../workflow/read-leavers.js';
import { workflowIdOf } from '../../workflow/submit-offboarding.js';
import type { WorkflowRecord } from '../../workflow/workflow-store.js';
import { checkTimeZone } from '../../workflow/zoned-time.js';
import { parseThreadOf, type ControlDeps, type ControlOffboardingDeps } from '../control-deps.js';
import { DEFAULT_MAX_PLAN_ROWS } from './plan-within-deadline.js';
import { requireTarget } from './require-target.js';
import { withRedis } from '../with-redis.js';

/** What a person or a script chose for an offboarding: `seatflow offboard`'s flags. */
export interface OffboardingRequest {
  bytes: Buffer;
  /** The uploaded file's name: names the offboarding and its step batches. */
  name: string;
  /** `--hold` (e.g. `7d`); default offboarding.defaultHoldDays. */
  hold?: string | undefined;
  transferTo?: string | undefined;
  removeFromSharing: boolean;
  /** `--no-undo-window`: a hold below offboarding.minHoldHours is accepted. */
  noUndoWindow?: boolean | undefined;
  /** `--tz`: the zone of leave dates without an offset. */
  tz?: string | undefined;
  /** `--leave-date-column`, `--transfer-column`, … and `--ignore-column`: which column means what. */
  columns?: LeaversColumnChoices | undefined;
}

export type PlannedOffboardingRequest =
  /** The same file with the same options was submitted before: nothing to plan. */
  | { known: WorkflowRecord }
  | { plan: OffboardingPlan };

/**
 * `seatflow offboard`'s plan for the control API and the dashboard (one function, so both act alike): the leavers
 * file is read (a large one on the parse thread, within control.maxPlanRows), a known offboarding is found before a
 * pre-flight is spent on it, and the workflow's own plan does the rest.
 */
export async function planOffboardingRequest(deps: ControlDeps, offboarding: ControlOffboardingDeps, request: OffboardingRequest): Promise<PlannedOffboardingRequest> {
  requireTarget(deps);
  const { system, config } = offboarding;
  const timeZone = request.tz === undefined ? undefined : checkTimeZone(request.tz);
  const holdMs = holdOf(request.hold, config.offboarding);
  const name = path.basename(request.name);
  const read = await parseThreadOf(deps).run({
    kind: 'leavers',
    // The name says the format by its extension; the bytes are the upload.
    options: {
      path: name,
      content: request.bytes,
      maxRows: config.guardrails.maxRows,
      lastDayEndsAt: config.offboarding.lastDayEndsAt,
      ...(timeZone === undefined ? {} : { timeZone }),
      ...(request.columns === undefined ? {} : { columns: request.columns }),
    },
    maxPlanRows: deps.maxPlanRows ?? DEFAULT_MAX_PLAN_ROWS,
  });
  // Named after the upload, not a path of the server's disk.
  const file = { ...read, path: name };
  const options: OffboardingOptions = {
    holdMs,
    removeFromSharing: request.removeFromSharing,
    ...(request.transferTo === undefined ? {} : { transferTo: request.transferTo }),
    ...(timeZone === undefined ? {} : { timeZone }),
    ...(request.columns === undefined ? {} : { columns: request.columns }),
    ...(request.noUndoWindow === true ? { noUndoWindow: true } : {}),
  };
  const known = await withRedis(deps, () => system.store.get(workflowIdOf({ source: file, options }, deps.target.id)));
  if (known !== undefined && known.state !== 'submitting') return { known };
  return { plan: await withRedis(deps, () => system.plan(file, { api: deps.batches.api, config, options }), { timeout: false }) };
}
