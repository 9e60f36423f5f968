import { z } from 'zod';
import type { SmartsheetApi } from '../../client/smartsheet-api.js';
import type { Config } from '../../core/config.js';
import type { OffboardingSystem } from '../../workflow/offboarding-system.js';
import type { OffboardingPlan } from '../../workflow/plan-offboarding.js';
import { readLeavers } from '../../workflow/read-leavers.js';
import type { ChangeKindHandler, QueuedChange } from '../approvals/change-kind.js';
import type { PlanFingerprint } from '../approvals/plan-fingerprint.js';
import { leaverCalls } from '../../workflow/leaver-calls.js';

/** What an offboarding is planned from, kept with its request: the leavers file's bytes and the options. */
export const offboardingInputSchema = z.object({
  path: z.string(),
  contentBase64: z.string(),
  options: z.object({
    holdMs: z.number(),
    transferTo: z.string().optional(),
    removeFromSharing: z.boolean(),
    timeZone: z.string().optional(),
    noUndoWindow: z.boolean().optional(),
    columns: z
      .object({ columns: z.record(z.string(), z.string()).optional(), read: z.array(z.string()).optional(), ignore: z.array(z.string()).optional() })
      .optional(),
  }),
});
export type OffboardingInput = z.infer<typeof offboardingInputSchema>;

export function offboardingInputOf(path: string, content: Buffer, options: OffboardingPlan['options']): OffboardingInput {
  return offboardingInputSchema.parse(JSON.parse(JSON.stringify({ path, contentBase64: content.toString('base64'), options })));
}

/**
 * An offboarding's plan as approvers see it and its hash covers it: per leaver, who, the verdict, the transfer target
 * and (for a future leave date) when. A leaver deactivated "now" is not dated: "now" moves at every re-plan.
 */
export function fingerprintOfOffboarding(plan: Pick<OffboardingPlan, 'leavers'>): PlanFingerprint {
  const lines = plan.leavers.map((leaver) => ({
    key: `row ${leaver.row}`,
    text: `${leaver.email}: ${leaver.verdict}${leaver.verdict === 'deactivate-on-date' ? ` ${new Date(leaver.leaveAt).toISOString()}` : ''}${leaver.transferTo === undefined ? '' : `, transfer to ${leaver.transferTo.email}`}${leaver.rule === undefined ? '' : ` [${leaver.rule}]`}`,
    decision: {
      email: leaver.email,
      userId: leaver.userId ?? null,
      verdict: leaver.verdict,
      ...(leaver.rule === undefined ? {} : { rule: leaver.rule }),
      ...(leaver.verdict === 'deactivate-on-date' ? { leaveAt: leaver.leaveAt } : {}),
      transferTo: leaver.transferTo?.userId ?? null,
    },
    view: { line: leaver.line, ...(leaver.transferTo === undefined ? {} : { transferTo: leaver.transferTo.email }), ...(leaver.reason === undefined ? {} : { reason: leaver.reason }), ...(leaver.notes.length === 0 ? {} : { notes: leaver.notes.join('\n') }) },
  }));
  const accepted = plan.leavers.filter((leaver) => leaver.verdict !== 'refused');
  const summary: Record<string, number> = {};
  for (const leaver of plan.leavers) summary[leaver.verdict] = (summary[leaver.verdict] ?? 0) + 1;
  // Every accepted leaver is removed after the hold: each one takes something away.
  return { lines, summary, changes: accepted.length, destructive: accepted.length, actions: accepted.length === 0 ? [] : ['deactivate', 'remove'], calls: leaverCalls(plan.leavers) };
}

export interface OffboardingPlanning {
  api: SmartsheetApi;
  config: Pick<Config, 'guardrails' | 'offboarding'>;
  offboarding: Pick<OffboardingSystem, 'plan' | 'submit'>;
}

export async function planOffboardingInput(input: OffboardingInput, planning: OffboardingPlanning): Promise<OffboardingPlan> {
  const file = await readLeavers({
    path: input.path,
    content: Buffer.from(input.contentBase64, 'base64'),
    maxRows: planning.config.guardrails.maxRows,
    lastDayEndsAt: planning.config.offboarding.lastDayEndsAt,
    ...(input.options.timeZone === undefined ? {} : { timeZone: input.options.timeZone }),
    ...(input.options.columns === undefined ? {} : { columns: input.options.columns }),
  });
  return planning.offboarding.plan(file, { api: planning.api, config: planning.config, options: input.options as OffboardingPlan['options'] });
}

export async function queueOffboardingPlan(offboarding: Pick<OffboardingSystem, 'submit'>, plan: OffboardingPlan): Promise<QueuedChange> {
  const submitted = await offboarding.submit(plan);
  return { id: submitted.workflow.id, created: submitted.created };
}

/** An offboarding (`seatflow offboard`, POST /v1/offboardings). */
export function createOffboardingKind(planning: OffboardingPlanning): ChangeKindHandler {
  return {
    kind: 'offboarding',
    async replan(raw) {
      const input = offboardingInputSchema.parse(raw);
      const plan = await planOffboardingInput(input, planning);
      return { plan: fingerprintOfOffboarding(plan), queue: () => queueOffboardingPlan(planning.offboarding, plan) };
    },
  };
}
