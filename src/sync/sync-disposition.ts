/** What happened to a planned run: applied, held (and why), waiting for approval, or only planned. */
export interface SyncDisposition {
  runId: string;
  applied: boolean;
  heldBecause?: string[];
  /** The change request the run waits as (nothing changed, the export is not accepted until it is approved). */
  awaitingApproval?: string;
  /** The request was made by this run (false: asked for before, by this export and policy). */
  requestCreated?: boolean;
  /** Applied, and nothing needed to change: the export is accepted, no workflow was made. */
  nothingToChange?: boolean;
  /**
   * Refused as not acknowledged (no Redis replica took a workflow in time): what it applied may still be kept and run
   * as planned, under the workflow ids the report names; the same export again finds it.
   */
  notAcknowledged?: boolean;
}
