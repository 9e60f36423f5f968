import { luaScript, type RedisClient } from './lua-script.js';

// KEYS: the record's hash, then the sorted set that lists it when it shares the record's slot. ARGV: the field that
// tells one creation from another, the record's score and member in that list ('' when KEYS[2] is absent), then the
// record's field, value pairs (`id` among them). Writes the whole record and its list entry at once, only where no
// record exists. A record that holds this creation's value of that field is this creation's: Redis made it and the
// answer was lost, and the connection sent the script again on reconnecting (ioredis resends unanswered commands).
// Returns 1 when the record is this creation's.
const CREATE = luaScript('CreateRecord', `
local mine
for i = 4, #ARGV, 2 do if ARGV[i] == ARGV[1] then mine = ARGV[i + 1] end end
if redis.call('HEXISTS', KEYS[1], 'id') == 1 then
  if mine and redis.call('HGET', KEYS[1], ARGV[1]) == mine then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
if KEYS[2] then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3]) end
return 1`);

/** A sorted set that lists records, in the record's hash slot, so the record and its entry are written together. */
export interface RecordIndex {
  key: string;
  score: number;
  member: string;
}

/**
 * Creates a record (a batch, a workflow) in one write where none has its key: true when this call created it. Two
 * writes (the id, then the rest) left a record of only its id when the second was lost (a crash between them, or the
 * first's answer lost and sent again), which every later submission of the same id took for one that exists.
 * `distinct`: the field whose value differs between two creations of one id (its creation time). `index`: the list
 * entry written with the record, where it shares the record's slot (a crash between two writes left a record unlisted).
 */
export async function createRecord(redis: RedisClient, key: string, fields: Readonly<Record<string, string | number>>, distinct: string, index?: RecordIndex): Promise<boolean> {
  const pairs = Object.entries(fields).flatMap(([name, value]) => [name, String(value)]);
  const keys = index === undefined ? [key] : [key, index.key];
  return (await CREATE.run(redis, keys, [distinct, index === undefined ? '' : String(index.score), index?.member ?? '', ...pairs])) === 1;
}
