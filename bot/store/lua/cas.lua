-- uses: seen shown bucket
-- KEYS: table hash, timers zset, the chat's window of update ids, publish zset, publishing
-- lock, shown hash, the group's and the bot's budget buckets, then the sets of users who sit at
-- the table (on a cluster neither the bot's bucket nor the users' sets: the caller spends and
-- adds them, and passes 0 calls in all). ARGV: expected version, mode ("save"|"delete"), doc, timer_at ("" clears), ttl
-- ("" persists), chat id (timer member), update id ("": none, KEYS[3] unused), publish due
-- time (a saved table must be published by then, by this process or another), lock token ("":
-- none), lock lease (ms), the digest of the document the write is based on ("": version only),
-- the digest of the new document (kept in field h: a version alone is not proof enough after a
-- rollback, see "Versions"), the window's size and time to live, the token of this process's
-- held publication of the table ("": none), the calls it made to the group and in all, now,
-- then what it showed (field, value...). A saved table with a token also takes the lock if it
-- is free (the reply then goes on with 1 and the shown hashes), or if the held publication
-- still has it: that one is released first (shown hashes stored, calls spent) and the reply
-- goes on with 2. Returns {1, new version} ({1, 0} after a delete), {0, current version,
-- current document} when the version moved ({0, '0', ''}: no table), or {2} when the version
-- matched but the update id was already seen (nothing written). A new table's version is the
-- server clock in microseconds (built as text: Lua numbers are doubles).
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '0' end
local seen_doc = ARGV[11] == '' or (redis.call('HGET', KEYS[1], 'h') or ARGV[11]) == ARGV[11]
if current ~= ARGV[1] or not seen_doc then
  return {0, current, redis.call('HGET', KEYS[1], 'd') or ''}
end
if ARGV[7] ~= '' and seen(KEYS[3], ARGV[7], tonumber(ARGV[13]), ARGV[14]) then
  return {2}
end
if ARGV[2] == 'delete' then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[6])
  redis.call('ZREM', KEYS[4], ARGV[6])
  return {1, 0}
end
redis.call('ZADD', KEYS[4], 'NX', ARGV[8], ARGV[6])
local version
if current == '0' then
  local now = redis.call('TIME')
  version = now[1] .. string.format('%06d', tonumber(now[2]))
  redis.call('HSET', KEYS[1], 'v', version, 'd', ARGV[3], 'h', ARGV[12])
else
  version = redis.call('HINCRBY', KEYS[1], 'v', 1)
  redis.call('HSET', KEYS[1], 'd', ARGV[3], 'h', ARGV[12])
end
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[2], ARGV[6])
else
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[6])
end
if ARGV[5] == '' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('EXPIRE', KEYS[1], ARGV[5])
end
for i = 9, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[6])
  if ARGV[5] ~= '' then redis.call('EXPIRE', KEYS[i], ARGV[5]) end
end
if ARGV[9] == '' then return {1, version} end
if ARGV[15] ~= '' and redis.call('GET', KEYS[5]) == ARGV[15] then
  local now = tonumber(ARGV[18])
  if tonumber(ARGV[16]) > 0 then bucket(KEYS[7], now, GROUP_RATE, GROUP_BURST, ARGV[16]) end
  if tonumber(ARGV[17]) > 0 then bucket(KEYS[8], now, BOT_RATE, BOT_BURST, ARGV[17]) end
  store_shown(KEYS[6], ARGV[5], 19)
  redis.call('SET', KEYS[5], ARGV[9], 'PX', ARGV[10])
  redis.call('ZADD', KEYS[4], ARGV[8], ARGV[6])
  return {1, version, 2}
end
if redis.call('SET', KEYS[5], ARGV[9], 'NX', 'PX', ARGV[10]) then
  local reply = {1, version, 1}
  for _, x in ipairs(redis.call('HGETALL', KEYS[6])) do reply[#reply + 1] = x end
  return reply
end
return {1, version}
