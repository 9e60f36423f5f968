import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import { PACKAGE_ROOT } from '../../../src/core/package-root.js';
import { SEATFLOW_VERSION } from '../../../src/core/version.js';

describe('the package version', () => {
  it('is what package.json says: `seatflow --version` prints it and the client\'s User-Agent names it', () => {
    const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(SEATFLOW_VERSION).toBe(version);
    expect(buildProgram().version()).toBe(version);
  });
});
