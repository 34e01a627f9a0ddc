-- What a publication showed: the shown hash at ``key`` becomes the field, value pairs of ARGV
-- from ``first`` on (kept as long as the table: ttl "" for no expiry).
local function store_shown(key, ttl, first)
  redis.call('DEL', key)
  for i = first, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
  if ttl ~= '' and #ARGV >= first then redis.call('EXPIRE', key, ttl) end
end
