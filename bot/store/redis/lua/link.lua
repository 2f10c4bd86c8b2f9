-- KEYS: 1 the user's set of tables. ARGV: 1 a chat, 2 seconds the set lives on.
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
