import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import { PACKAGE_ROOT, packageVersion } from '../../../src/core/package-root.js';

describe('the package version', () => {
  it('is what package.json says, and what `seatflow --version` prints', () => {
    const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(packageVersion()).toBe(version);
    expect(buildProgram().version()).toBe(version);
  });
});
