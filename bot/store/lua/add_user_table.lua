-- KEYS: the user's set. ARGV: chat id, ttl ("" keeps the current expiry).
redis.call('SADD', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1
