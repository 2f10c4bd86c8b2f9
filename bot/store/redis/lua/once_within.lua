-- Something done at most once a while (`RedisStore.once_within`; its key keeps
-- the name `claim:<name>` it had, so a deploy keeps the times already taken).
-- KEYS: 1 the claim; ARGV: 1 now, 2 when the claim is over, 3 its seconds
-- (the key's TTL: it never outlives its claim by much)
local over = redis.call('GET', KEYS[1])
if over and tonumber(over) > tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
