// The published package installed as a user installs it (docs/operations.md), for the benchmarks that measure it
// (bench/startup.ts, bench/quota-use.ts --installed): the same installation as the package test's.
export { installPackage, type InstalledPackage } from '../test/helpers/install-package.js';
