-- KEYS: lock key. ARGV: token, lease (ms). Returns 1 when the lock was still the token's (its
-- lease now starts again), else 0 (nothing changed: a lapsed lock is never taken back here).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
