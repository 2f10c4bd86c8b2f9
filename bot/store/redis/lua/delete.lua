-- KEYS: 1 table hash, 2 log list, 3 message ids hash. The chat's keys gone,
-- the record's JSON they held returned (its seated people's links go next).
local data = redis.call('HGET', KEYS[1], 'data')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return data
