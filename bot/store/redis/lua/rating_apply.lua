-- The rating commit's second step, one a stats key, in that key's slot.
-- KEYS: 1 a stats hash (overall or a chat's); ARGV: 1 the rating's number,
-- then player key/JSON pairs. Writes them unless a rating numbered as high was
-- applied already (1: written, 0: it was there).
local applied = tonumber(redis.call('HGET', KEYS[1], '~applied') or '0')
if applied >= tonumber(ARGV[1]) then
  return 0
end
for i = 2, #ARGV - 1, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('HSET', KEYS[1], '~applied', ARGV[1])
return 1
