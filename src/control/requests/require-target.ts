import type { ControlDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';

/** Plans and submissions read live state: without a token there is nothing to read it with. */
export function requireTarget(deps: Pick<ControlDeps, 'target'>): void {
  if (deps.target.configured) return;
  throw new ControlError(503, CONTROL_ERROR_CODES.targetNotConfigured, 'no access token is configured for the target service', {
    hint: 'Set SMARTSHEET_ACCESS_TOKEN to a System Admin API token and restart `seatflow serve` (or start it with --sim).',
  });
}
