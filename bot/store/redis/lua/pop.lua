-- The rating commit's third step, and a set-aside's second.
-- KEYS: 1 rating queue, 2 the stored figures (one slot: see rating_take.lua);
-- ARGV: 1 the game expected at its head. Pops it (1), or nothing when the head
-- has moved (0); its stored figures go either way (popped, they are not needed).
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then
  return 0
end
redis.call('LPOP', KEYS[1])
return 1
