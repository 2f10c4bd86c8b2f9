-- `migrate` (a group become a supergroup) is copy-then-delete, each step a
-- script on one chat's slot (see `RedisStore.migrate` for why no move is lost).
--
-- The copy, on the NEW chat's slot. KEYS: 1 table hash, 2 log list, 3 message
-- ids hash (the new chat's). ARGV: 1 the old chat id, 2 the old record's
-- version, 3 its JSON (``chat_id`` rewritten), 4 its ``g``, 5 ``s``, 6 ``r``
-- ("" each: none), 7 the ms it has left to live (<= 0: no expiry), 8 how many
-- message ids, 9.. their name/id pairs, then the log's lines.
-- The copy is marked: ``from`` the old chat, ``cv`` the version it was copied
-- at (a save never removes a field, so both stay). It is written when the new
-- id holds no record, or holds an earlier copy from this same old chat that
-- nobody has played on (its version still ``cv``; a copy is rewritten whole
-- from the old record, which is as new or newer: saves there since, message
-- ids set there since). A copy played on (version past ``cv``) is the game
-- now and stays. Anything else is another game: refused — as is an old record
-- older than the copy (its version went back: a game begun anew at the old
-- id, not the one copied). Returns {0} refused, {1, v, JSON} kept, {2, v, JSON}
-- written: the new id's record as it stands.
local cur = redis.call('HMGET', KEYS[1], 'v', 'data', 'from', 'cv')
local v = tonumber(ARGV[2])
if cur[2] then
  if cur[3] ~= ARGV[1] or not cur[4] or v < tonumber(cur[4]) then
    return {0}
  end
  if tonumber(cur[1] or '0') ~= tonumber(cur[4]) then
    return {1, cur[1], cur[2]}
  end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'data', ARGV[3], 'from', ARGV[1], 'cv', ARGV[2])
local fields = {'g', 's', 'r'}
for i = 1, 3 do
  if ARGV[3 + i] ~= '' then
    redis.call('HSET', KEYS[1], fields[i], ARGV[3 + i])
  end
end
local n = tonumber(ARGV[8])
if n > 0 then
  redis.call('HSET', KEYS[3], unpack(ARGV, 9, 8 + 2 * n))
end
for i = 9 + 2 * n, #ARGV, 500 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
local left = tonumber(ARGV[7])
if left > 0 then
  for k = 1, 3 do
    redis.call('PEXPIRE', KEYS[k], left)
  end
end
return {2, ARGV[2], ARGV[3]}
