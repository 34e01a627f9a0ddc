-- uses: bucket
-- On a cluster, the bot's bucket alone (its key is in no table's slot). KEYS: the bot's bucket.
-- ARGV: now, calls to spend (0: only read). Returns the level after, as text.
return tostring(bucket(KEYS[1], tonumber(ARGV[1]), BOT_RATE, BOT_BURST, tonumber(ARGV[2])))
