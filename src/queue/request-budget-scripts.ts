/**
 * The Lua side of the request budget (request-budget.ts): one leaky bucket per access token, modelled in Redis so
 * that every worker on every machine spends from the same bucket, on one clock (Redis TIME).
 *
 * Every script takes the same three keys, all of one token, passed explicitly (so that they can live in one Redis
 * Cluster slot and be registered once with ioredis `defineCommand`):
 *   KEYS[1] state hash: level, at, cap (learned capacity), rate (learned refill, units per ms), hitAt (last 429),
 *           strikes (429s in a row), sent (units sent since the last 429), epoch (bumped by each 429), calmAt
 *   KEYS[2] pause: until when (ms) nothing is sent
 *   KEYS[3] counters hash: calls, rateLimited
 * and the same leading arguments (BUDGET_ARGS): told rate (units per ms), configured capacity, capacity floor, rate
 * floor, headroom, window ms, state lifetime ms.
 *
 * The bucket is a leaky bucket: `level` units are in it at time `at` and leak at the learned rate less the headroom.
 * A call of `cost` units may go when level + cost <= cap less the headroom; a call that would overflow reserves the moment it fits and
 * waits for it (so the fleet keeps one queue, first come first served). `at` may lie in the future after a 429: the
 * level then reads higher until the pause is over.
 */

/** Shared head of the scripts that read the model: clock, state, slow recovery, current level. */
const READ_STATE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
-- Before the leaky bucket, this key held a GCRA time as a string: a leftover is dropped, not an error.
if redis.call('TYPE', KEYS[1]).ok == 'string' then redis.call('DEL', KEYS[1]) end
local told, cap0, capFloor, rateFloor = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local headroom, windowMs, keepMs = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local f = redis.call('HMGET', KEYS[1], 'level', 'at', 'cap', 'rate', 'hitAt', 'strikes', 'sent', 'epoch', 'calmAt')
local level = tonumber(f[1]) or 0
local at = tonumber(f[2]) or now
local cap = math.min(tonumber(f[3]) or cap0, cap0)
local rate = math.min(tonumber(f[4]) or told, told)
local hitAt = tonumber(f[5]) or 0
local strikes = tonumber(f[6]) or 0
local sent = tonumber(f[7]) or 0
local epoch = tonumber(f[8]) or 0
local calmAt = tonumber(f[9]) or now
-- Raised slowly while no 429 comes: each whole window gives back a tenth of the capacity and a fiftieth of the rate.
if (cap < cap0 or rate < told) and now - calmAt >= windowMs then
  local steps = math.floor((now - calmAt) / windowMs)
  cap = math.min(cap0, cap + steps * math.max(1, cap0 / 10))
  rate = math.min(told, rate + steps * told / 50)
  calmAt = calmAt + steps * windowMs
end
local interval = 1 / (rate * (1 - headroom))
-- The headroom also keeps a share of the bucket unused: the service starts refilling when its first call arrives,
-- a little after this model starts leaking, so a bucket used to the last call meets a 429 as the burst ends.
local usable = math.max(1, cap * (1 - headroom))
level = math.max(0, level - (now - at) / interval)
at = now
local function save()
  redis.call('HSET', KEYS[1], 'level', level, 'at', at, 'cap', cap, 'rate', rate, 'hitAt', hitAt, 'strikes', strikes,
    'sent', sent, 'epoch', epoch, 'calmAt', calmAt)
  redis.call('PEXPIRE', KEYS[1], keepMs)
end
local pauseUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
`;

/**
 * ARGV[8]: cost, ARGV[9]: 1 to hold the place (the caller confirms it even when it may go now). Returns
 * {0, pauseLeftMs, epoch, interval, 0} while the fleet is paused (nothing reserved), or {1, waitMs, epoch, interval,
 * slot} once a place was reserved: 0 means go now (counted as sent, unless held); more means wait that long, then
 * CONFIRM with the epoch and the slot (the Redis time the call fits at).
 */
export const RESERVE = `${READ_STATE}
if pauseUntil > now then return {0, math.ceil(pauseUntil - now), epoch, tostring(interval), '0'} end
local cost = tonumber(ARGV[8])
local wait = math.max(0, (level + cost - usable) * interval)
level = level + cost
if wait <= 0 and ARGV[9] ~= '1' then
  sent = sent + cost
  redis.call('HINCRBY', KEYS[3], 'calls', 1)
end
save()
return {1, math.ceil(wait), epoch, tostring(interval), string.format('%.3f', now + wait)}`;

/**
 * ARGV[1]: the epoch of the reservation, ARGV[2]: cost, ARGV[3]: its slot, ARGV[4]: how late it may still go (ms).
 * 1 = go (counted as sent), 0 = reserve again: while paused, after a 429 (which cancels every reservation made before
 * it), or when the slot is long past. The model leaked the reserved place at its slot as if the call had gone then; a
 * call that goes seconds later (its confirmation waited out a Redis failover, or its process stalled) would go on top
 * of the room the model has since handed to others, and a fleet of such calls overflows the service's bucket. So a
 * late call is charged anew, at the time it really goes.
 */
export const CONFIRM = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local pauseUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
local epoch = tonumber(redis.call('HGET', KEYS[1], 'epoch') or '0')
if pauseUntil > now or epoch ~= tonumber(ARGV[1]) then return 0 end
if now > tonumber(ARGV[3]) + tonumber(ARGV[4]) then return 0 end
redis.call('HINCRBYFLOAT', KEYS[1], 'sent', ARGV[2])
redis.call('HINCRBY', KEYS[3], 'calls', 1)
return 1`;

/**
 * A 429: the service's bucket is empty now. ARGV[8]: Retry-After ms or -1, ARGV[9]: how long ago the refused call was
 * sent. Counts the 429 once. A call sent before the last 429 was recorded belongs to the same overshoot and teaches
 * nothing new (only a longer Retry-After extends the pause). Otherwise:
 * - if this fleet thought the bucket had room, or this is the first 429 in a window, the service's bucket is smaller
 *   than assumed (or other tools share the token): the capacity halves (or drops to the level it had reached), never
 *   below the floor;
 * - if it was pacing already since a recent 429, the refill is slower than told: the rate becomes what went through
 *   since that 429 (the service was empty then and is empty now), less 5% (a quarter less if nothing went through);
 * the bucket is recorded full, and the pause is Retry-After when the service sent one, else the time the bucket needs
 * to take the next call at the learned rate, doubling with each 429 in a row up to one window.
 * Returns {pauseMs, capacity, rate per second}.
 */
export const RECORD_429 = `${READ_STATE}
redis.call('HINCRBY', KEYS[3], 'rateLimited', 1)
local retryAfter = tonumber(ARGV[8])
local sentAt = now - tonumber(ARGV[9])
local pauseMs = 0
if hitAt > 0 and sentAt < hitAt then
  if retryAfter > 0 then pauseMs = retryAfter end
else
  local recent = hitAt > 0 and now - hitAt <= windowMs
  if level < usable - math.max(1, cap / 10) or not recent then
    cap = math.max(capFloor, math.min(cap / 2, level))
  elseif sent > 0 then
    rate = math.max(rateFloor, math.min(rate, sent / (now - hitAt)) * 0.95)
  else
    rate = math.max(rateFloor, rate * 0.75)
  end
  if recent then strikes = strikes + 1 else strikes = 1 end
  interval = 1 / (rate * (1 - headroom))
  usable = math.max(1, cap * (1 - headroom))
  if retryAfter >= 0 then
    pauseMs = retryAfter
  else
    pauseMs = math.min(windowMs, interval * 2 ^ (strikes - 1))
  end
  hitAt = now
  sent = 0
  calmAt = now
  epoch = epoch + 1
  -- Full until the pause ends; then the next call fits, and calls go at the learned rate.
  level = math.max(0, usable - 1)
  at = now + pauseMs
  save()
end
if pauseMs > 0 and pauseUntil < now + pauseMs then
  redis.call('SET', KEYS[2], string.format('%.3f', now + pauseMs), 'PX', math.ceil(pauseMs) + 1000)
end
return {math.ceil(pauseMs), tostring(cap), tostring(rate * 1000)}`;

/** ARGV[8]: pause ms. Extends the fleet-wide pause (never shortens it); learns nothing, counts nothing. */
export const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local untilMs = now + tonumber(ARGV[8])
local current = tonumber(redis.call('GET', KEYS[2]) or '0')
if current < untilMs then redis.call('SET', KEYS[2], string.format('%.3f', untilMs), 'PX', math.ceil(tonumber(ARGV[8])) + 1000) end
return math.ceil(math.max(current, untilMs) - now)`;

/** Returns {level, capacity, rate per second, pause left ms} as strings, without changing anything. */
export const READ = `${READ_STATE}
return {tostring(level), tostring(cap), tostring(rate * 1000), tostring(math.max(0, pauseUntil - now))}`;
