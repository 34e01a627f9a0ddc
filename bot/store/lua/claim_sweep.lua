-- uses: claim
-- KEYS: timers zset, publish zset, the sweeping processes' zset (only with a process id). ARGV:
-- now, timer lease-until, publication lease-until, limit, the process's id ("": not counted),
-- seconds a process counts after its last sweep. Returns {claimed timers, claimed publications,
-- processes that swept lately}.
local timers = claim(KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[4]))
local pubs = claim(KEYS[2], ARGV[1], ARGV[3], tonumber(ARGV[4]))
local processes = 0
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[1], ARGV[5])
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[6]))
  redis.call('EXPIRE', KEYS[3], math.ceil(tonumber(ARGV[6])) + 60)
  processes = redis.call('ZCARD', KEYS[3])
end
return {timers, pubs, processes}
