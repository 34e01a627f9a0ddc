-- One bucket of Telegram's budget (bot/store/budget.py): refill by the time elapsed, spend
-- ``debit``, keep the level (may go negative: a debt the next spenders see). Returns the level
-- after. The rates and bursts of a group's bucket and of the bot's are filled in when loaded.
local GROUP_RATE, GROUP_BURST = $GROUP_RATE, $GROUP_BURST
local BOT_RATE, BOT_BURST = $BOT_RATE, $BOT_BURST
local function bucket(key, now, rate, burst, debit)
  local level = tonumber(redis.call('HGET', key, 't') or burst)
  local at = tonumber(redis.call('HGET', key, 'a') or now)
  level = math.min(burst, level + math.max(0, now - at) * rate) - debit
  redis.call('HSET', key, 't', tostring(level), 'a', tostring(now))
  redis.call('EXPIRE', key, math.ceil(burst / rate) + 60)
  return level
end
