-- KEYS: 1 table hash, 2 history hash, 3 log list; ARGV: 1 the game. What a
-- finishing save reads first (`RedisStore._log_before`), at one moment.
return {redis.call('HMGET', KEYS[1], 'v', 'g'),
        redis.call('HEXISTS', KEYS[2], 'r:' .. ARGV[1]),
        redis.call('LRANGE', KEYS[3], 0, -1)}
