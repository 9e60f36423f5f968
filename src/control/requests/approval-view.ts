import type { ApprovalRecord } from '../../governance/approvals/approval-record.js';

export type ApprovalView = ApprovalRecord & { links: { self: string; approve: string; reject: string } };

/** A change request as the API shows it, with where to look at it. */
export function approvalView(record: ApprovalRecord): ApprovalView {
  const self = `/v1/approvals/${record.id}`;
  return { ...record, links: { self, approve: `${self}/approve`, reject: `${self}/reject` } };
}
