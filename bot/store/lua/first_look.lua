-- uses: seen
-- KEYS: the chat's window of update ids, table hash. ARGV: update id, window size, ttl, the
-- version and digest of the copy the caller has. Returns {first (1|0), 1} when that copy is
-- current, else {first, 0, version, document} as check.lua.
local first = 1
if seen(KEYS[1], ARGV[1], tonumber(ARGV[2]), ARGV[3]) then first = 0 end
local current = redis.call('HGET', KEYS[2], 'v')
if current == false then current = '0' end
if current == ARGV[4] and (redis.call('HGET', KEYS[2], 'h') or ARGV[5]) == ARGV[5] then
  return {first, 1}
end
return {first, 0, current, redis.call('HGET', KEYS[2], 'd') or ''}
