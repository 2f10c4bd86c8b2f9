-- A rating set aside, its first step (`RedisStore.set_aside_rating`: the game
-- joins the set-aside list once, then pop.lua takes it off the queue's head).
-- KEYS: 1 the games set aside; ARGV: 1 the game, 2 how many set aside games
-- are kept. 1: listed now; 0: it was listed already.
if redis.call('LPOS', KEYS[1], ARGV[1]) then
  return 0
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
return 1
