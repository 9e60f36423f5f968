import path from 'node:path';

/** What decides where seatflow keeps its state by default: the platform, its environment, the user's home. */
export interface PlatformOf {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  homedir: string;
}

/**
 * The platform's directory for an application's state (the private Redis, reports, logs), used when SEATFLOW_HOME is
 * not set: `$XDG_STATE_HOME/seatflow` or `~/.local/state/seatflow` on Linux and other Unixes (the XDG base directory
 * specification's state directory), `~/Library/Application Support/seatflow` on macOS, `%LOCALAPPDATA%\seatflow` on
 * Windows. Not env-paths: it has no state directory (XDG_STATE_HOME only as its `log`), adds `\Data` on Windows, and
 * reads process.env itself, where seatflow reads the environment in one place (config.ts).
 */
export function platformStateHome({ platform, env, homedir }: PlatformOf): string {
  if (platform === 'darwin') return path.posix.join(homedir, 'Library', 'Application Support', 'seatflow');
  if (platform === 'win32') return path.win32.join(nonEmpty(env.LOCALAPPDATA) ?? path.win32.join(homedir, 'AppData', 'Local'), 'seatflow');
  // The specification asks for an absolute XDG_STATE_HOME and says to ignore a relative one.
  const xdg = nonEmpty(env.XDG_STATE_HOME);
  return path.posix.join(xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(homedir, '.local', 'state'), 'seatflow');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
