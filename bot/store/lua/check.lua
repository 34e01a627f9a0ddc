-- KEYS: table hash. ARGV: expected version, expected digest ("": version only). Returns {1}, or
-- {0, version, document} as cas.lua.
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '0' end
local seen = ARGV[2] == '' or (redis.call('HGET', KEYS[1], 'h') or ARGV[2]) == ARGV[2]
if current == ARGV[1] and seen then return {1} end
return {0, current, redis.call('HGET', KEYS[1], 'd') or ''}
