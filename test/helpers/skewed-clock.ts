/**
 * A Node `--import` preload for a process on a machine whose clock is off by `skewMs` (NTP broken): `Date.now` and
 * argument-less `new Date()` shifted by the skew; every other use of Date is left as it is.
 */
export function skewPreload(skewMs: number): string {
  const source = [
    `const skew = ${Math.trunc(skewMs)};`,
    'const RealDate = Date; const realNow = RealDate.now;',
    'class SkewedDate extends RealDate { constructor(...args) { if (args.length === 0) super(realNow() + skew); else super(...args); } }',
    'SkewedDate.now = () => realNow() + skew;',
    'globalThis.Date = SkewedDate;',
  ].join('\n');
  return `data:text/javascript,${encodeURIComponent(source)}`;
}
