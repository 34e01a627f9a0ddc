-- uses: claim
-- KEYS: timers zset (or the publish zset). ARGV: now, lease-until, limit, table key prefix.
-- Returns the claimed chat ids; members whose table no longer exists are dropped.
return claim(KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4])
