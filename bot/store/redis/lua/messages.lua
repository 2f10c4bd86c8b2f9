-- KEYS: 1 message ids hash, 2 table hash
-- ARGV: 1 seconds the ids live on when the chat has no record, 2 what to publish
-- on the chat's channel ('' nothing: no view's id changed), 3 how many names to
-- forget, 4.. those names, then name/id pairs to set.
-- The ids live as long as the record does; without a record, they expire on
-- their own (a record saved later gives them its time). Returns the record's version.
local n = tonumber(ARGV[3])
if n > 0 then
  redis.call('HDEL', KEYS[1], unpack(ARGV, 4, n + 3))
end
if #ARGV > n + 3 then
  redis.call('HSET', KEYS[1], unpack(ARGV, n + 4, #ARGV))
end
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
else
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
if ARGV[2] ~= '' then
  redis.call('PUBLISH', KEYS[2], ARGV[2])
end
return tonumber(redis.call('HGET', KEYS[2], 'v') or '0')
