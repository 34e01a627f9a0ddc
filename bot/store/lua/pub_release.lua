-- uses: bucket shown
-- KEYS: lock key, shown hash, table hash, publish zset, the group's and the bot's budget
-- buckets (on a cluster not the bot's: the caller spends it, and passes 0 calls in all). ARGV: token, version published, retry at ("": none), chat id, ttl of the shown hash
-- ("": none), lease (ms), now, calls made to the group, calls made in all, then field, value...
-- Returns {'lost'}, {'done'} (lock freed), {'retry'} (lock freed, due at retry) or
-- {'more', current version, current document} (lock kept and extended).
local now = tonumber(ARGV[7])
if tonumber(ARGV[8]) > 0 then bucket(KEYS[5], now, GROUP_RATE, GROUP_BURST, ARGV[8]) end
if tonumber(ARGV[9]) > 0 then bucket(KEYS[6], now, BOT_RATE, BOT_BURST, ARGV[9]) end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'lost'} end
store_shown(KEYS[2], ARGV[5], 10)
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[4])
  redis.call('DEL', KEYS[1])
  return {'retry'}
end
local current = redis.call('HGET', KEYS[3], 'v') or '0'
if current == ARGV[2] or current == '0' then
  redis.call('ZREM', KEYS[4], ARGV[4])
  redis.call('DEL', KEYS[1])
  return {'done'}
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return {'more', current, redis.call('HGET', KEYS[3], 'd')}
