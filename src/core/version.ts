import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './config.js';

/** seatflow's version, as its package.json says (the same file in a checkout and in the image). */
export const SEATFLOW_VERSION: string = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
