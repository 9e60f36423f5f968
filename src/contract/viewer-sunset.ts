/**
 * The day the service retired the VIEWER seat type (decisions.md #13; developer guide "Migrate from VIEWER to
 * CONTRIBUTOR seat type"): from then on CONTRIBUTOR replaces VIEWER in downgrade bodies, the seatType filter and
 * answers, and a request that names VIEWER fails. One constant for the client and the reference server.
 */
export const VIEWER_SUNSET_AT = Date.parse('2026-10-30T00:00:00Z');

/** Whether the service, at `now` (epoch ms), is past the sunset `sunsetAt`. */
export function isPastViewerSunset(now: number, sunsetAt: number = VIEWER_SUNSET_AT): boolean {
  return now >= sunsetAt;
}
