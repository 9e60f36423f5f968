// The environment a benchmark gives a seatflow process: the bench's own home, whatever the shell exports. The older
// SEATFLOW_DATA_DIR is dropped, since a home that names another folder than it is refused (src/core/config.ts).
export function seatflowEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SEATFLOW_HOME: home, ...extra };
  delete env.SEATFLOW_DATA_DIR;
  return env;
}
