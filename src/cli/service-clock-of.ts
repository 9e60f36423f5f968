import { request } from 'undici';
import { z } from 'zod';
import { isLoopbackHost } from '../control/loopback-host.js';
import type { Logger } from '../core/logger.js';
import { createServiceClock, describeSkew, type ServiceClock } from '../core/service-clock.js';

const simClockSchema = z.object({ epochMs: z.number() });

/**
 * The service clock of a target. A reference server on this machine (`--sim`, or `seatflow sim` at a loopback
 * SMARTSHEET_API_BASE) is asked for its clock (`GET /_sim/clock`, admin token, loopback only), so moving it
 * (`POST /_sim/clock`) moves seatflow's due times and ages; any other target is the real service, whose `Date`
 * headers the clients feed in (`observe`). A skew past 30 s is said once, as a warning.
 */
export function serviceClockOf(baseUrl: string, accessToken: string | undefined, logger: Logger): ServiceClock {
  const url = new URL(baseUrl);
  const asked = accessToken !== undefined && isLoopbackHost(url.hostname);
  return createServiceClock({
    ...(asked ? { readSimClock: () => readSimClock(`${url.origin}/_sim/clock`, accessToken) } : {}),
    onSkew: (skewMs, source) =>
      logger.warn(
        { skewMs, source },
        source === 'sim-clock'
          ? `the reference server's clock is ${describeSkew(skewMs)}: due times and ages follow it`
          : `the service's clock (its Date header) is ${describeSkew(skewMs)}: due times and ages follow the service; check this machine's time (NTP)`,
      ),
  });
}

/**
 * The reference server's clock, or undefined when the target answers and not as one (the real service never does);
 * rejects when the target cannot be reached, so that it is asked again later.
 */
async function readSimClock(url: string, accessToken: string): Promise<number | undefined> {
  const response = await request(url, { headers: { authorization: `Bearer ${accessToken}` }, headersTimeout: 2000, bodyTimeout: 2000 });
  const text = await response.body.text();
  if (response.statusCode !== 200) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // An answer that is not JSON is an answer: this target is no reference server (not a reason to ask again).
    return undefined;
  }
  const parsed = simClockSchema.safeParse(body);
  return parsed.success ? parsed.data.epochMs : undefined;
}
