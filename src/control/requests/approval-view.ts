import type { ApprovalRecord } from '../../governance/approvals/approval-record.js';
import { callsToApply, type CallRate, type CallsToApply } from '../../plan/calls-at-rate.js';

export type ApprovalView = ApprovalRecord & { calls?: CallsToApply; links: { self: string; approve: string; reject: string } };

/**
 * A change request as the API shows it, with where to look at it and, as every plan answer has it, the calls applying
 * its plan makes at the configured rate (`calls`; absent for a request stored before its count was kept).
 */
export function approvalView(record: ApprovalRecord, rate: CallRate): ApprovalView {
  const self = `/v1/approvals/${record.id}`;
  return { ...record, ...(record.callsToApply === undefined ? {} : { calls: callsToApply(record.callsToApply, rate) }), links: { self, approve: `${self}/approve`, reject: `${self}/reject` } };
}
