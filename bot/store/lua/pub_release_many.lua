-- uses: bucket
-- The releases of several held publications in one round trip: pub_release.lua for each (never a
-- retry). KEYS: publish zset, then for each table: lock, shown hash, table hash, the group's
-- bucket; then the bot's budget bucket (on a cluster none: the caller spends it, and passes 0
-- calls in all). ARGV: now, lease (ms), ttl of the shown hashes ("": none), then for each table:
-- token, version published, chat id, calls made to the group and in all, how many shown-hash
-- values follow, then those (field, value...). Returns three values for each table: 'lost',
-- 'done' or 'more' (then the current version and document).
local now = tonumber(ARGV[1])
local out = {}
local a = 4
local tables = math.floor((#KEYS - 1) / 4)
local bot = KEYS[2 + 4 * tables]
for t = 0, tables - 1 do
  local lock, shown, tab, gb = KEYS[2 + 4 * t], KEYS[3 + 4 * t], KEYS[4 + 4 * t], KEYS[5 + 4 * t]
  local token, version, chat = ARGV[a], ARGV[a + 1], ARGV[a + 2]
  local sg, sb, n = tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4]), tonumber(ARGV[a + 5])
  local first = a + 6
  a = first + n
  if sg > 0 then bucket(gb, now, GROUP_RATE, GROUP_BURST, sg) end
  if sb > 0 and bot then bucket(bot, now, BOT_RATE, BOT_BURST, sb) end
  if redis.call('GET', lock) ~= token then
    out[#out + 1] = 'lost'; out[#out + 1] = ''; out[#out + 1] = ''
  else
    redis.call('DEL', shown)
    for i = first, a - 1, 2 do redis.call('HSET', shown, ARGV[i], ARGV[i + 1]) end
    if ARGV[3] ~= '' and n > 0 then redis.call('EXPIRE', shown, ARGV[3]) end
    local current = redis.call('HGET', tab, 'v') or '0'
    if current == version or current == '0' then
      redis.call('ZREM', KEYS[1], chat)
      redis.call('DEL', lock)
      out[#out + 1] = 'done'; out[#out + 1] = ''; out[#out + 1] = ''
    else
      redis.call('PEXPIRE', lock, ARGV[2])
      out[#out + 1] = 'more'; out[#out + 1] = current
      out[#out + 1] = redis.call('HGET', tab, 'd') or ''
    end
  end
end
return out
