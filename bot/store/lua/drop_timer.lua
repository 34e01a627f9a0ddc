-- KEYS: table hash, timers zset. ARGV: chat id. The table's timer is dropped if the table is
-- gone (it expired). Returns 1 when dropped.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
return redis.call('ZREM', KEYS[2], ARGV[1])
