// Runs every benchmark in turn, each in its own process so that one's memory and timers cannot skew another's:
// `npm run bench`. Each prints its own figures; this only sequences them. About fifteen minutes on 2 cores (the quota table takes eleven).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benches = [
  ['bench/server-throughput.ts', '--seconds', '5'],
  ['bench/manifest-parse.ts'],
  ['bench/preflight.ts'],
  ['bench/control-plan-stall.ts'],
  ['bench/export-users.ts'],
  ['bench/startup.ts'],
  ['bench/quota-use.ts'],
  ['bench/overhead.ts'],
  ['bench/fleet.ts'],
];

let failed = 0;
for (const [file, ...args] of benches) {
  process.stdout.write(`\n=== ${file} ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, [path.join(root, 'bin/seatflow-dev'), file!, ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failed += 1;
    process.stdout.write(`${file} exited ${result.status ?? result.signal}\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
