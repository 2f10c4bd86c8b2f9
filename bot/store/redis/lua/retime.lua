-- KEYS: 1 the timers' index. ARGV: 1 a chat, 2 the score `due` read for it,
-- 3 its record's timer as `due` read it after ("": none, the chat leaves the
-- index). Set only if the score is still the one read: a save meanwhile that
-- lowered it (`RedisStore.save`'s ``ZADD LT``) keeps its own.
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at or tonumber(at) ~= tonumber(ARGV[2]) then
  return 0
end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
