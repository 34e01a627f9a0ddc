-- KEYS: lock key, shown hash. ARGV: token, lease (ms), chat id, the wake-up channel. Returns {1,
-- field, value, ...} (the shown hashes) when the lock is taken, {0} when another process holds
-- it (which is woken: the chat id goes to the channel).
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('PUBLISH', ARGV[4], ARGV[3])
  return {0}
end
local shown = redis.call('HGETALL', KEYS[2])
table.insert(shown, 1, 1)
return shown
