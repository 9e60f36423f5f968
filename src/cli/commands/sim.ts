import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { wholeNumber } from '../whole-number.js';
import { fileRefusal } from '../../core/file-refusal.js';
import { UsageError } from '../../core/seatflow-error.js';
import type { Fixture } from '../../server/index.js';
import { parseFaultSpec } from '../../server/sim/faults.js';
import { parseRateLimit } from '../../server/sim/rate-limit.js';

interface SimFlags {
  port: string;
  host: string;
  adminToken?: string;
  data?: string;
  users?: string;
  rateLimit: string;
  rateBucket?: string;
  faults?: string;
  faultSeed?: string;
  viewerSunset?: string;
  gov?: boolean;
}

/** An ISO date or date-time for --viewer-sunset; anything else is a usage error. */
function sunsetDate(text: string): string {
  if (Number.isNaN(Date.parse(text))) {
    throw new UsageError(`--viewer-sunset: not a date: ${text}`, 'Give an ISO date, e.g. --viewer-sunset 2027-01-01 to serve VIEWER as before the sunset.');
  }
  return text;
}

function readFixture(file: string): Fixture {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw fileRefusal('fixture', file, error, 'Name a JSON fixture (its format: docs/reference-server.md#fixtures).');
  }
  try {
    return JSON.parse(text) as Fixture;
  } catch (error) {
    throw new UsageError(`fixture ${file} is not JSON: ${(error as Error).message}`, 'See docs/reference-server.md#fixtures.');
  }
}

/** `seatflow sim`: the reference server on loopback, seeded with the demo organization, until SIGINT/SIGTERM. */
export function defineSimCommand(command: Command): void {
  command
    .option('--port <n>', 'port to listen on (0 = any free port)', '8090')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--admin-token <token>', 'token of the System Admin (default sim-admin-token)')
    .option('--data <file>', 'JSON fixture to load instead of the demo organization')
    .option('--users <n>', 'generated users in the demo organization (default 300)')
    .option('--rate-limit <n/seconds|off>', 'per-token rate limit (refill); N/SECONDS:BUCKET also sets the bucket', '300/60')
    .option('--rate-bucket <n>', 'calls each token\'s bucket holds (default: the rate\'s N, one window\'s worth)')
    .option('--faults <spec>', 'fault injection, e.g. 503:0.1,500-after:0.02,reset:0.01,delay:250ms:0.05')
    .option('--fault-seed <n>', 'seed of the fault draws', '1')
    .option('--viewer-sunset <date>', 'date the VIEWER seat type is retired (default 2026-10-30; a later date serves VIEWER as before)')
    .option('--gov', 'answer as Smartsheet Gov: deactivate and reactivate are unavailable (403/9007)')
    .action(async (flags: SimFlags) => {
      let rateLimit;
      try {
        rateLimit = parseRateLimit(flags.rateLimit, flags.rateBucket === undefined ? undefined : wholeNumber('--rate-bucket', flags.rateBucket, 1));
        if (flags.faults !== undefined) parseFaultSpec(flags.faults);
      } catch (error) {
        throw new UsageError((error as Error).message, 'Examples: --rate-limit 300/60, --rate-limit 300/60:50 (a bucket of 50), --rate-limit off, --faults 503:0.1');
      }
      // Loaded here, not at the top: every other command would pay for the server's modules at start.
      const { startReferenceServer } = await import('../../server/start-reference-server.js');
      const sim = await startReferenceServer({
        port: wholeNumber('--port', flags.port, 0, 65535),
        host: flags.host,
        rateLimit,
        faultSeed: wholeNumber('--fault-seed', flags.faultSeed ?? '1'),
        ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
        ...(flags.data === undefined ? {} : { data: readFixture(flags.data) }),
        ...(flags.users === undefined ? {} : { users: wholeNumber('--users', flags.users) }),
        ...(flags.faults === undefined ? {} : { faults: flags.faults }),
        ...(flags.viewerSunset === undefined ? {} : { viewerSunset: sunsetDate(flags.viewerSunset) }),
        ...(flags.gov === true ? { gov: true } : {}),
      });
      const out = process.stdout;
      out.write(`seatflow reference server (simulated service, not the real one)\n`);
      out.write(`  base URL     ${sim.url}\n`);
      out.write(`  admin token  ${sim.tokens.admin}\n`);
      if (flags.data === undefined) {
        out.write(`  user token   ${sim.tokens.user}   (dana.whitfield@acme.example, not an admin)\n`);
        out.write(`  app token    ${sim.tokens.app}    (app "Acme HR Sync")\n`);
      }
      out.write(`  plan id      ${sim.planId}\n`);
      out.write(`  users        ${sim.context.state.users.size}\n`);
      out.write(`  rate limit   ${rateLimit === 'off' ? 'off' : `${rateLimit.requests}/${rateLimit.perSeconds}s per token, bucket ${rateLimit.bucket ?? rateLimit.requests}`}\n`);
      if (flags.faults !== undefined) out.write(`  faults       ${flags.faults}\n`);
      const sunset = new Date(sim.context.settings.viewerSunsetAt).toISOString().slice(0, 10);
      const retired = sim.context.clock.now() >= sim.context.settings.viewerSunsetAt;
      out.write(`  VIEWER seat  ${retired ? `retired on ${sunset} (CONTRIBUTOR in its place)` : `served until ${sunset}`}\n`);
      if (flags.gov === true) out.write('  region       Smartsheet Gov (deactivate and reactivate unavailable); plan against it with SEATFLOW_API_REGION=GOV\n');
      out.write(`  controls     ${sim.origin}/_sim/... (admin token, loopback only)\n`);
      out.write(`Try: SMARTSHEET_API_BASE=${sim.url} SMARTSHEET_ACCESS_TOKEN=${sim.tokens.admin} seatflow plan <manifest>\n`);
      out.write('Press Ctrl-C to stop.\n');
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await sim.close();
      out.write('reference server stopped\n');
    });
}
