-- The save: the compare-and-set of a chat's record and its log's append, in
-- one atomic step (`RedisStore.save`).
--
-- KEYS: 1 table hash, 2 log list, 3 message ids hash, 4 history hash — the
--       chat's keys only, one hash slot (``{<chat>}``): Redis Cluster runs it
-- ARGV: 1 expected version, 2 record JSON (its version is the hash's `v`), 3 game_no,
--       4 timer score or "" for none (kept as the hash's ``d``: what `due` checks
--       its index against), 5 seconds the game's keys live on, 6 status (lobby,
--       playing, finished: kept beside the JSON for the games gauge), 7 the
--       history's `GameRecord` JSON of a game this save finishes ("" none),
--       8 how many finished games the history keeps, 9 "1" when the chat's game
--       numbers count (a group's game: not practice), 10 the finished game's
--       whole command log, packed (`bot.store.packing`), 11.. the commands'
--       log lines (`bot.store.packing.log_line`)
-- What the save means outside the chat's slot follows it, one slot a step
-- (`RedisStore.save`): the timer's index lowered to the record's timer and the
-- running update's claim made final — on one node in the save's own round
-- trip, sent right behind it (so each lands after the record it follows).
-- A save that brings a new game number raises the chat's counter of game
-- numbers (``last`` in the history hash, kept for good with it), so a number
-- is never given twice in the chat whatever expires; a chat from before the
-- counter starts it past the highest game its history holds.
-- A finished game goes into the chat's history (with its whole log) in this
-- same atomic step, once: HSETNX on its game number; the oldest games beyond
-- the kept number leave the history in it too. What a finished game means
-- outside its chat — its /replay number, its place in the rating queue, each
-- player's ``played`` index — is written after the save, in steps of one slot
-- each (`RedisStore._publish`, which a cut leaves to `publish_finished`).
-- The new version is published on the channel named like the table key (the
-- Mini App's live views, `bot.webapp.live`): inside the script, so it costs no
-- round trip and no viewer ever hears of a version before it is saved — but
-- the save that finishes a game, whose version is published by its publishing
-- (`RedisStore._publish`): this process hears of it after it knows it saved it,
-- not as another process's save in the middle of its own.
--
-- Versions are never given twice to one record, whatever Redis forgets: the
-- record keeps (``r``) the replication id of the primary that saved it last.
-- A primary that has another — a promoted replica, a Redis restarted from a
-- file that may have lost its last second — may lack saves the old one made
-- (and told players of) after this record's state: its version jumps ahead to
-- an epoch of the primary's clock (``TIME`` seconds × 2^20), past any version a
-- lost save can have held (given out before the failure, within a second's
-- 2^20); while the primary stays, it grows by one. Returns ``{new version,
-- 1 when this save put a finished game into the history (else 0), the /replay
-- numbers of the games it dropped from the history...}``; ``{0}``: someone
-- else saved first.
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then
  return {0}
end
-- #include primary
local new = v + 1
if v > 0 and redis.call('HGET', KEYS[1], 'r') ~= primary then
  new = math.max(new, tonumber(redis.call('TIME')[1]) * 1048576)
end
local version = string.format('%.0f', new)
local g = redis.call('HGET', KEYS[1], 'g')
if g and g ~= ARGV[3] then
  redis.call('DEL', KEYS[2])
end
if ARGV[9] == '1' and g ~= ARGV[3] then
  local hist = KEYS[4]
  -- #include last
  if tonumber(ARGV[3]) > last then
    redis.call('HSET', KEYS[4], 'last', ARGV[3])
  end
end
redis.call('HSET', KEYS[1], 'v', version, 'data', ARGV[2], 'g', ARGV[3], 's', ARGV[6],
  'r', primary, 'd', ARGV[4])
for i = 11, #ARGV, 500 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
local out = {new, 0}
if ARGV[7] ~= '' and redis.call('HSETNX', KEYS[4], 'r:' .. ARGV[3], ARGV[7]) == 1 then
  out[2] = 1
  redis.call('HSET', KEYS[4], 'l:' .. ARGV[3], ARGV[10])
  local games = {}
  for _, field in ipairs(redis.call('HKEYS', KEYS[4])) do
    if string.sub(field, 1, 2) == 'r:' then
      games[#games + 1] = string.sub(field, 3)
    end
  end
  local keep = tonumber(ARGV[8])
  if #games > keep then
    table.sort(games, function(a, b) return tonumber(a) < tonumber(b) end)
    for i = 1, #games - keep do
      local old = games[i]
      local number = redis.call('HGET', KEYS[4], 'n:' .. old)
      if number then
        out[#out + 1] = number
      end
      redis.call('HDEL', KEYS[4], 'r:' .. old, 'l:' .. old, 'n:' .. old)
    end
  end
end
local ttl = tonumber(ARGV[5])
for k = 1, 3 do
  redis.call('EXPIRE', KEYS[k], ttl)
end
if ARGV[7] == '' then
  redis.call('PUBLISH', KEYS[1], version)
end
return out
