/**
 * The client as it behaves when a connection drops after Redis ran a script but before its answer came back: ioredis
 * sends every unanswered command again once it has reconnected, so the script runs twice and the caller gets the
 * second run's answer. `command` is the script's ioredis command (`seatflow` + the luaScript name).
 */
export function resendingScript<R extends object>(redis: R, command: string): R {
  return new Proxy(redis, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (prop !== command) return bound;
      return async (...args: unknown[]) => {
        await bound(...args);
        return bound(...args);
      };
    },
  });
}
