-- The old record's delete (`migrate`'s third step), on the OLD chat's slot:
-- only while it is still what was copied — its version (a save since changes
-- it: its log, its data, its time to live with it) and its message ids (set
-- without a save) as read.
-- KEYS: 1 table hash, 2 log list, 3 message ids hash (the old chat's). ARGV: 1
-- the version copied, 2.. the message ids copied, name/id pairs. 1: deleted;
-- 0: it moved on (copy again).
if tonumber(redis.call('HGET', KEYS[1], 'v') or '0') ~= tonumber(ARGV[1]) then
  return 0
end
local ids = redis.call('HGETALL', KEYS[3])
if #ids ~= #ARGV - 1 then
  return 0
end
local copied = {}
for i = 2, #ARGV, 2 do
  copied[ARGV[i]] = ARGV[i + 1]
end
for i = 1, #ids, 2 do
  if copied[ids[i]] ~= ids[i + 1] then
    return 0
  end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
