-- KEYS: 1 the chat's history hash. ARGV: 1 the game, 2 the /replay number
-- this call was given. The game's number, once: the one given first (a
-- publisher that lost — a cut save's follow-up and `publish_finished` racing —
-- takes back the number it was given, see `RedisStore._publish`). Returns the
-- game's number, or 0 when the history no longer has the game.
if redis.call('HEXISTS', KEYS[1], 'r:' .. ARGV[1]) == 0 then
  return 0
end
redis.call('HSETNX', KEYS[1], 'n:' .. ARGV[1], ARGV[2])
return tonumber(redis.call('HGET', KEYS[1], 'n:' .. ARGV[1]))
