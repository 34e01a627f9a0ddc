-- claim(key, now, until_, limit): lease the members of the sorted set ``key`` due at ``now``
-- (their score becomes ``until_``) and return them. (A member whose table expired is dropped by
-- whoever finds the table gone: drop_timer.lua, or the publication's release.)
local function claim(key, now, until_, limit)
  local due = redis.call('ZRANGEBYSCORE', key, '-inf', now, 'LIMIT', 0, limit)
  for _, member in ipairs(due) do
    redis.call('ZADD', key, until_, member)
  end
  return due
end
