import { createHash } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { planHashOf } from '../../governance/approvals/plan-fingerprint.js';
import { fingerprintOfSync, syncThroughGate } from '../../governance/kinds/sync-kind.js';
import type { Actor } from '../../governance/operators/actor.js';
import type { GuardrailCheck } from '../../plan/guardrails.js';
import { runSync, type SyncApproval, type SyncRun } from '../../sync/run-sync.js';
import type { SyncPlan } from '../../sync/sync-plan.js';
import type { ControlDeps, ControlSyncDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { requireTarget } from './require-target.js';
import { noPolicyFolder, syncPolicyFile } from './sync-policy-file.js';
import { withRedis } from '../with-redis.js';

/** `seatflow sync`'s arguments and flags as a request gives them. */
export interface SyncRequest {
  /** The HR export as uploaded, and its file name. */
  bytes: Buffer;
  name: string;
  /** A policy of the policy folder, by file name. */
  policy: string;
  /** Queue the plan (`--apply`); false: plan only. */
  apply: boolean;
  /** `--accept-missing`: an export the accidental-deletion threshold calls broken is confirmed. */
  acceptMissing: boolean;
  /** `--yes`: changes over the guardrails are confirmed; otherwise they are refused with 409. */
  confirmed: boolean;
  /** The plan the person saw (its hash, `syncPlanHash`): a plan that differs now is refused, nothing queued. */
  planHash?: string | undefined;
  actor?: Actor | undefined;
  reason?: string | undefined;
}

/** The hash a sync plan has for the approvals gate: what a person confirmed, compared again before it is queued. */
export function syncPlanHash(plan: SyncPlan, target: string): string {
  return planHashOf('sync', target, fingerprintOfSync(plan).lines);
}

/**
 * `seatflow sync` for the control API and the dashboard (one function, so both act alike, and as the CLI does): the
 * policy from the server's policy folder only, the upload kept under the sync folder (the plan and its report name
 * it), then the sync's own run — the broken-export safety, the guardrails, the approvals gate, the plan report.
 */
export async function runSyncRequest(deps: ControlDeps, sync: ControlSyncDeps, request: SyncRequest): Promise<SyncRun> {
  requireTarget(deps);
  if (sync.policyDir === undefined) throw noPolicyFolder();
  const policyPath = await syncPolicyFile(sync.policyDir, request.policy);
  const exportPath = await keepUpload(sync.dir, request.bytes, request.name);
  await sync.refreshClock?.();
  return withRedis(
    deps,
    () =>
      runSync({
        exportPath,
        policyPath,
        api: deps.batches.api,
        offboarding: sync.offboarding,
        config: sync.config,
        target: deps.target.id,
        apply: request.apply,
        acceptMissing: request.acceptMissing,
        confirmGuardrails: async (check) => {
          if (!request.confirmed) throw overGuardrails(check);
          return true;
        },
        reportDir: sync.dir,
        now: sync.now,
        approve: approval(deps, request, { exportPath, policyPath }),
      }),
    { timeout: false },
  );
}

/** The gate of a sync over HTTP: only the plan the person saw, and through approvals when the server has governance. */
function approval(deps: ControlDeps, request: SyncRequest, files: { exportPath: string; policyPath: string }): SyncApproval {
  return async ({ plan, apply }) => {
    if (request.planHash !== undefined && syncPlanHash(plan, deps.target.id) !== request.planHash) {
      throw new ControlError(409, CONTROL_ERROR_CODES.conflict, 'the plan of this sync changed since it was shown (the organization or the open workflows changed): nothing was queued, and the export is not accepted', {
        hint: 'Look at the plan again, then confirm what it says now.',
      });
    }
    const governance = deps.governance;
    if (governance === undefined) return { applied: await apply() };
    const modifiedAt = (await stat(files.exportPath)).mtimeMs;
    return syncThroughGate(
      governance.gate,
      plan,
      {
        target: deps.target.id,
        sim: deps.target.sim,
        // The approver plans exactly these bytes again, with the policy of the folder as it is then.
        input: { exportPath: files.exportPath, contentBase64: request.bytes.toString('base64'), modifiedAt, policyPath: files.policyPath, acceptMissing: request.acceptMissing },
        requestedBy: request.actor ?? governance.operators.byToken(deps.token)!,
        reason: request.reason,
      },
      apply,
    );
  };
}

function overGuardrails(check: GuardrailCheck): ControlError {
  return new ControlError(409, CONTROL_ERROR_CODES.confirmationRequired, `refused: ${check.reasons.join('; ')}`, {
    hint: 'Check the plan (dryRun=true), then send the same export again with confirm=true. Nothing was queued.',
    details: { guardrails: check },
  });
}

/**
 * The upload kept as `<dir>/uploads/<sha256, 16>/<name>`: the plan, its report and an approval name a file that
 * holds these bytes. The time it was first kept stands for the file's time (a policy's exportTime "file-modified").
 */
async function keepUpload(dir: string, bytes: Buffer, name: string): Promise<string> {
  const folder = path.join(dir, 'uploads', createHash('sha256').update(bytes).digest('hex').slice(0, 16));
  const base = path.basename(name);
  const file = path.join(folder, base === '' || base === '.' || base === '..' ? 'hr-export.csv' : base);
  await mkdir(folder, { recursive: true });
  await writeFile(file, bytes, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return file;
}
