-- uses: bucket
-- KEYS: group bucket, bot bucket, the user's quiet key. ARGV: now, then the rates and bursts,
-- the reserves and the quiet seconds. Returns 'group' (one token spent from both buckets),
-- 'private' (the user was answered in the group lately, or the reserve is reached).
local now = tonumber(ARGV[1])
if ARGV[8] ~= '0' and redis.call('EXISTS', KEYS[3]) == 1 then return 'private' end
local group = bucket(KEYS[1], now, tonumber(ARGV[2]), tonumber(ARGV[3]), 0)
local bot = bucket(KEYS[2], now, tonumber(ARGV[4]), tonumber(ARGV[5]), 0)
if group < tonumber(ARGV[6]) + 1 or bot < tonumber(ARGV[7]) + 1 then return 'private' end
bucket(KEYS[1], now, tonumber(ARGV[2]), tonumber(ARGV[3]), 1)
bucket(KEYS[2], now, tonumber(ARGV[4]), tonumber(ARGV[5]), 1)
if ARGV[8] ~= '0' then redis.call('SET', KEYS[3], '1', 'EX', ARGV[8]) end
return 'group'
