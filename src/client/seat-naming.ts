import { isPastViewerSunset, serviceSeatType, VIEWER_SUNSET_AT } from '../contract/index.js';
import type { SmartsheetClientOptions } from './smartsheet-client-options.js';

/** Turns a seat type asked for by a caller into the spelling the service takes now. */
export type SeatNaming = <T extends string>(seatType: T) => T | 'VIEWER' | 'CONTRIBUTOR';

/**
 * The client decides by the wall clock (or `options.now`) against the sunset date (docs/service.md#seat-types): nothing on the
 * wire says which side of the sunset a service is on, and asking would cost a call per process. The date is
 * configurable for a service that retires VIEWER on another day.
 */
export function createSeatNaming(options: Pick<SmartsheetClientOptions, 'viewerSunset' | 'now'>): SeatNaming {
  const sunsetAt = options.viewerSunset === undefined ? VIEWER_SUNSET_AT : new Date(options.viewerSunset).getTime();
  const now = options.now ?? Date.now;
  return (seatType) => serviceSeatType(seatType, isPastViewerSunset(now(), sunsetAt));
}
