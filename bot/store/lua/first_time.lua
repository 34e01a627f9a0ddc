-- uses: seen
-- KEYS: the chat's window of update ids. ARGV: update id, window size, ttl. Returns 1 the first
-- time, else 0.
if seen(KEYS[1], ARGV[1], tonumber(ARGV[2]), ARGV[3]) then return 0 end
return 1
