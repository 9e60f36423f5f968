import { luaScript, type RedisClient } from './lua-script.js';

// KEYS: the record's hash. ARGV: the field that tells one creation from another, then the record's field, value pairs
// (`id` among them). Writes the whole record at once, only where none exists. A record that holds this creation's
// value of that field is this creation's: Redis made it and the answer was lost, and the connection sent the script
// again on reconnecting (ioredis resends unanswered commands). Returns 1 when the record is this creation's.
const CREATE = luaScript('CreateRecord', `
local mine
for i = 2, #ARGV, 2 do if ARGV[i] == ARGV[1] then mine = ARGV[i + 1] end end
if redis.call('HEXISTS', KEYS[1], 'id') == 1 then
  if mine and redis.call('HGET', KEYS[1], ARGV[1]) == mine then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return 1`);

/**
 * Creates a record (a batch, a workflow) in one write where none has its key: true when this call created it. Two
 * writes (the id, then the rest) left a record of only its id when the second was lost (a crash between them, or the
 * first's answer lost and sent again), which every later submission of the same id took for one that exists.
 * `distinct`: the field whose value differs between two creations of one id (its creation time).
 */
export async function createRecord(redis: RedisClient, key: string, fields: Readonly<Record<string, string | number>>, distinct: string): Promise<boolean> {
  return (await CREATE.run(redis, [key], [distinct, ...Object.entries(fields).flatMap(([name, value]) => [name, String(value)])])) === 1;
}
