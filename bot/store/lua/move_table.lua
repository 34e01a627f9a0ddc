-- KEYS: old table, new table, timers zset, publish zset, old shown, new shown, old prefs, new
-- prefs, old publishing lock, then the sets of users who sit at the table. ARGV: expected
-- version, new document, ttl ("" none), old chat id, new chat id, publish due time, digest of
-- the new document. Returns {1, version}, {0, current version, current document} as cas.lua
-- (also when there is no table), or {3} when the new chat has a table already.
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '0' end
if current ~= ARGV[1] or current == '0' then
  return {0, current, redis.call('HGET', KEYS[1], 'd') or ''}
end
if redis.call('EXISTS', KEYS[2]) == 1 then return {3} end
local now = redis.call('TIME')
local version = now[1] .. string.format('%06d', tonumber(now[2]))
redis.call('HSET', KEYS[2], 'v', version, 'd', ARGV[2], 'h', ARGV[7])
if ARGV[3] ~= '' then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
redis.call('DEL', KEYS[1], KEYS[9])
local due = redis.call('ZSCORE', KEYS[3], ARGV[4])
redis.call('ZREM', KEYS[3], ARGV[4])
if due then redis.call('ZADD', KEYS[3], due, ARGV[5]) end
redis.call('ZREM', KEYS[4], ARGV[4])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[5])
if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('RENAME', KEYS[5], KEYS[6]) end
if redis.call('EXISTS', KEYS[7]) == 1 and redis.call('EXISTS', KEYS[8]) == 0 then
  redis.call('RENAME', KEYS[7], KEYS[8])
end
for i = 10, #KEYS do
  redis.call('SREM', KEYS[i], ARGV[4])
  redis.call('SADD', KEYS[i], ARGV[5])
  if ARGV[3] ~= '' then redis.call('EXPIRE', KEYS[i], ARGV[3]) end
end
return {1, version}
