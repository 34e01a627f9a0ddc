-- uses: bucket
-- where.lua on a cluster, without the bot's bucket (read before, spent after by the caller).
-- KEYS: group bucket, the user's quiet key. ARGV: now, the group's rate, burst and reserve, the
-- quiet seconds, whether the bot's bucket is above its reserve (1|0). Returns 'group' (one token
-- spent from the group's bucket) or 'private'.
local now = tonumber(ARGV[1])
if ARGV[5] ~= '0' and redis.call('EXISTS', KEYS[2]) == 1 then return 'private' end
local group = bucket(KEYS[1], now, tonumber(ARGV[2]), tonumber(ARGV[3]), 0)
if group < tonumber(ARGV[4]) + 1 or ARGV[6] ~= '1' then return 'private' end
bucket(KEYS[1], now, tonumber(ARGV[2]), tonumber(ARGV[3]), 1)
if ARGV[5] ~= '0' then redis.call('SET', KEYS[2], '1', 'EX', ARGV[5]) end
return 'group'
