import { describe, expect, it } from 'vitest';
import { createServiceClock, describeDuration, describeSkew } from '../../../src/core/service-clock.js';

const HOUR = 3_600_000;

describe('createServiceClock', () => {
  it("takes the real service's time from its Date headers (median, middle of the second), this machine's until one is seen", () => {
    let local = 1_000_000_000_000;
    const clock = createServiceClock({ local: () => local });
    expect(clock.source()).toBe('local');
    expect(clock.now()).toBe(local);
    // The service is 2 hours ahead; one answer arrives late and must not move the clock.
    for (const late of [0, 0, 5000, 0, 0]) clock.observe(local + 2 * HOUR - 500 - late, local);
    expect(clock.source()).toBe('date-header');
    expect(clock.skewMs()).toBe(2 * HOUR);
    local += 60_000;
    expect(clock.now()).toBe(local + 2 * HOUR);
  });

  it("asks the reference server for its clock, follows it when it moves, and ignores the Date header (its process's wall clock)", async () => {
    let local = 1_000_000_000_000;
    let server = local + 7 * 24 * HOUR;
    const clock = createServiceClock({ local: () => local, readSimClock: async () => server, refreshMs: 1000 });
    await clock.refresh();
    expect(clock.source()).toBe('sim-clock');
    expect(clock.now()).toBe(server);
    clock.observe(local, local);
    expect(clock.now()).toBe(server);
    // Moved again (POST /_sim/clock): seen at the next refresh, not more often than refreshMs.
    server += 24 * HOUR;
    await clock.refresh();
    expect(clock.now()).toBe(server - 24 * HOUR);
    local += 1000;
    server += 1000;
    await clock.refresh();
    expect(clock.now()).toBe(server);
    // A fresh read is made however recent the last: a worker about to park a row someone found due.
    server += 24 * HOUR;
    await clock.refresh();
    expect(clock.now()).toBe(server - 24 * HOUR);
    await clock.refresh(true);
    expect(clock.now()).toBe(server);
  });

  it('asks again when the reference server cannot be reached yet: a worker started before `seatflow sim` follows its clock once it answers', async () => {
    let local = 1_000_000_000_000;
    const server = local + 5 * 24 * HOUR;
    let up = false;
    const clock = createServiceClock({
      local: () => local,
      readSimClock: async () => {
        if (!up) throw new Error('connect ECONNREFUSED 127.0.0.1:8090');
        return server;
      },
      refreshMs: 1000,
    });
    await clock.refresh();
    expect(clock.source()).toBe('local');
    expect(clock.now()).toBe(local);
    up = true;
    local += 1000;
    await clock.refresh();
    expect(clock.source()).toBe('sim-clock');
    expect(clock.now()).toBe(server);
  });

  it('stays on Date headers when the target is not a reference server, and warns once about a large skew', async () => {
    const warnings: number[] = [];
    const local = 1_000_000_000_000;
    const clock = createServiceClock({ local: () => local, readSimClock: async () => undefined, onSkew: (skew) => warnings.push(skew), warnSkewMs: 30_000 });
    await clock.refresh();
    expect(clock.source()).toBe('local');
    clock.observe(local - 90_500, local);
    clock.observe(local - 90_500, local);
    expect(clock.source()).toBe('date-header');
    expect(warnings).toEqual([-90_000]);
    expect(describeSkew(clock.skewMs())).toBe('1m 30s behind this machine');
  });
});

describe('describeDuration', () => {
  it('rounds to the smallest unit it shows, so a skew measured a moment short of four days reads 4d 0h', () => {
    const day = 86_400_000;
    expect(describeDuration(4 * day - 1_200)).toBe('4d 0h');
    expect(describeDuration(-(4 * day - 1_200))).toBe('4d 0h');
    expect(describeDuration(3 * day + 4 * 3_600_000 + 20 * 60_000)).toBe('3d 4h');
    expect(describeDuration(day - 20 * 60_000)).toBe('1d 0h');
    expect(describeDuration(2 * 3_600_000 + 5 * 60_000 + 40_000)).toBe('2h 6m');
    expect(describeDuration(3_600_000 - 10_000)).toBe('1h 0m');
    expect(describeDuration(3 * 60_000 + 12_400)).toBe('3m 12s');
    expect(describeDuration(59_600)).toBe('1m 0s');
    expect(describeDuration(40_000)).toBe('40 s');
  });
});
