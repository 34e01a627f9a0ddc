-- claim(key, now, until_, limit, prefix): lease the members of the sorted set ``key`` due at
-- ``now`` (their score becomes ``until_``) and return them; members whose table (``prefix`` ..
-- member) no longer exists are dropped.
local function claim(key, now, until_, limit, prefix)
  local due = redis.call('ZRANGEBYSCORE', key, '-inf', now, 'LIMIT', 0, limit)
  local claimed = {}
  for _, member in ipairs(due) do
    if redis.call('EXISTS', prefix .. member) == 1 then
      redis.call('ZADD', key, until_, member)
      claimed[#claimed + 1] = member
    else
      redis.call('ZREM', key, member)
    end
  end
  return claimed
end
