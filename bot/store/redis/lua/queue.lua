-- KEYS: 1 rating queue, 2 the game's mark (in the queue's slot). ARGV: 1 the
-- game (``<chat>:<game>``), 2 seconds the mark is kept. The game joins the
-- queue once, however often its publishing is run: the mark is set with the
-- push, and kept far longer than a cut publishing waits to be run again.
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[2]) then
  redis.call('RPUSH', KEYS[1], ARGV[1])
  return 1
end
return 0
