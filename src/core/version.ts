import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './package-root.js';

/**
 * seatflow's version, as its package.json says (the same file in a checkout, the npm package and the image): the one
 * place `npm version` changes, read by `--version`, the client's User-Agent and the metrics.
 */
export const SEATFLOW_VERSION: string = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
