import { luaScript, type RedisClient } from './lua-script.js';

/** One Redis command: its name, then its arguments. */
export type RedisCommand = readonly [name: string, ...args: Array<string | number>];

// Arguments go as strings: a Lua number would print a millisecond time with fractions as 14 digits, changing it.
const TOGETHER = luaScript('WriteTogether', `
local replies = {}
for i, command in ipairs(cjson.decode(ARGV[1])) do replies[i] = redis.call(unpack(command)) end
return replies`);

/**
 * Runs `commands` as one script, in place of MULTI: Redis runs or refuses it whole, and a refused one (a demoted
 * master's READONLY, NOREPLICAS while too few replicas are in sync) is sent again whole by the connection
 * (open-redis.ts), where a command queued in a MULTI would be sent again outside its transaction. `keys` names every
 * key the commands touch: a cluster routes the script by them, so they must share one hash slot. Resolves each
 * command's reply, in order.
 */
export async function writeTogether(redis: RedisClient, keys: readonly string[], commands: readonly RedisCommand[]): Promise<unknown[]> {
  const encoded = JSON.stringify(commands.map((command) => command.map(String)));
  return (await TOGETHER.run(redis, [...new Set(keys)], [encoded])) as unknown[];
}
