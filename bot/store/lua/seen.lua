-- A chat's window of update ids (see "De-duplication"): seen(key, id, keep, ttl) is true when
-- ``id`` is in the window at ``key`` (ids separated by spaces, oldest first); otherwise it adds
-- ``id``, keeps the last ``keep`` ids and sets the window's time to live.
local function seen(key, id, keep, ttl)
  local ids = {}
  local raw = redis.call('GET', key)
  if raw then
    for x in string.gmatch(raw, '%d+') do
      if x == id then return true end
      ids[#ids + 1] = x
    end
  end
  ids[#ids + 1] = id
  local first = math.max(1, #ids - keep + 1)
  redis.call('SET', key, table.concat(ids, ' ', first), 'EX', ttl)
  return false
end
