/**
 * The day the service retired the VIEWER seat type (docs/service.md#seat-types; developer guide "Migrate from VIEWER to
 * CONTRIBUTOR seat type"): from then on CONTRIBUTOR replaces VIEWER in downgrade bodies, the seatType filter and
 * answers, and a request that names VIEWER fails. One constant for the client and the reference server.
 */
export const VIEWER_SUNSET_AT = Date.parse('2026-10-30T00:00:00Z');

/** Whether the service, at `now` (epoch ms), is past the sunset `sunsetAt`. */
export function isPastViewerSunset(now: number, sunsetAt: number = VIEWER_SUNSET_AT): boolean {
  return now >= sunsetAt;
}

/**
 * The spelling of a seat type the service takes at a given side of the sunset: VIEWER and CONTRIBUTOR are one seat;
 * past the sunset it is CONTRIBUTOR, before it VIEWER (the name every version of the service knows). Other seat
 * types pass through.
 */
export function serviceSeatType<T extends string>(seatType: T, pastSunset: boolean): T | 'VIEWER' | 'CONTRIBUTOR' {
  if (seatType !== 'VIEWER' && seatType !== 'CONTRIBUTOR') return seatType;
  return pastSunset ? 'CONTRIBUTOR' : 'VIEWER';
}

/** VIEWER and CONTRIBUTOR are one seat: compare seat types with this, never with `===`. */
export function sameSeatType(a: string | undefined, b: string | undefined): boolean {
  const one = (seat: string | undefined) => (seat === 'VIEWER' ? 'CONTRIBUTOR' : seat);
  return one(a) === one(b);
}
