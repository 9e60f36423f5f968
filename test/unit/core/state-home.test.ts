import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/core/config.js';
import { platformStateHome } from '../../../src/core/state-home.js';

describe('platformStateHome', () => {
  it('is $XDG_STATE_HOME/seatflow on Linux, else ~/.local/state/seatflow (a relative XDG_STATE_HOME is ignored, as the spec says)', () => {
    expect(platformStateHome({ platform: 'linux', env: { XDG_STATE_HOME: '/var/state' }, homedir: '/home/ann' })).toBe('/var/state/seatflow');
    expect(platformStateHome({ platform: 'linux', env: {}, homedir: '/home/ann' })).toBe('/home/ann/.local/state/seatflow');
    expect(platformStateHome({ platform: 'linux', env: { XDG_STATE_HOME: 'state' }, homedir: '/home/ann' })).toBe('/home/ann/.local/state/seatflow');
    expect(platformStateHome({ platform: 'freebsd', env: {}, homedir: '/home/ann' })).toBe('/home/ann/.local/state/seatflow');
  });

  it('is ~/Library/Application Support/seatflow on macOS', () => {
    expect(platformStateHome({ platform: 'darwin', env: { XDG_STATE_HOME: '/ignored' }, homedir: '/Users/ann' })).toBe('/Users/ann/Library/Application Support/seatflow');
  });

  it('is %LOCALAPPDATA%\\seatflow on Windows', () => {
    expect(platformStateHome({ platform: 'win32', env: { LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, homedir: 'C:\\Users\\ann' })).toBe('C:\\Users\\ann\\AppData\\Local\\seatflow');
    expect(platformStateHome({ platform: 'win32', env: {}, homedir: 'C:\\Users\\ann' })).toBe('C:\\Users\\ann\\AppData\\Local\\seatflow');
  });
});

describe('loadConfig: the seatflow home', () => {
  const machine = { platform: 'linux' as const, homedir: '/home/ann' };

  it('defaults to the platform state directory, never a folder relative to where the command starts', () => {
    expect(loadConfig({ env: {}, ...machine }).dataDir).toBe('/home/ann/.local/state/seatflow');
    expect(loadConfig({ env: { XDG_STATE_HOME: '/srv/state' }, ...machine }).dataDir).toBe('/srv/state/seatflow');
  });

  it('takes SEATFLOW_HOME, or its older name SEATFLOW_DATA_DIR, over the config file', () => {
    expect(loadConfig({ env: { SEATFLOW_HOME: '/srv/seatflow' }, ...machine }).dataDir).toBe('/srv/seatflow');
    expect(loadConfig({ env: { SEATFLOW_DATA_DIR: '/srv/old-name' }, ...machine }).dataDir).toBe('/srv/old-name');
    expect(loadConfig({ env: { SEATFLOW_HOME: '/srv/seatflow', SEATFLOW_DATA_DIR: '/srv/seatflow/' }, ...machine }).dataDir).toBe('/srv/seatflow');
  });

  it('refuses SEATFLOW_HOME and SEATFLOW_DATA_DIR naming different folders, saying which to keep', () => {
    expect(() => loadConfig({ env: { SEATFLOW_HOME: '/a', SEATFLOW_DATA_DIR: '/b' }, ...machine })).toThrow(/SEATFLOW_HOME \(\/a\) and SEATFLOW_DATA_DIR \(\/b\) name different folders/);
  });
});
