-- KEYS: 1 the user's hash. ARGV: 1 language ("": none), 2 started, 3 practice
-- games, 4 reviews, 5 UTC offset in minutes ("": by language), 6 quiet hours
-- ("": the default) (`RedisStore.save_user`).
if ARGV[1] == '' then
  redis.call('HDEL', KEYS[1], 'lang')
else
  redis.call('HSET', KEYS[1], 'lang', ARGV[1])
end
redis.call('HSET', KEYS[1], 'started', ARGV[2], 'practices', ARGV[3], 'reviews', ARGV[4])
for i, field in ipairs({'offset', 'quiet'}) do
  if ARGV[4 + i] == '' then
    redis.call('HDEL', KEYS[1], field)
  else
    redis.call('HSET', KEYS[1], field, ARGV[4 + i])
  end
end
