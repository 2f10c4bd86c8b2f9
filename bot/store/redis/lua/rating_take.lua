-- The rating commit's first step, on the queue's slot (the three steps:
-- `bot.store.redis.ratings`): if the game is still the queue's head, its new
-- figures (computed from the figures as they were before it) are stored beside
-- the queue — HSETNX-like: the first stored stays, and every process committing
-- this head gets back *that* one and applies it, whatever it computed itself.
-- Not the head: lost (someone else rated it). The head's number, stored with
-- its figures, is the later of the primary's clock in µs and the last number
-- given plus one (``~last``): numbers grow along the queue.
--
-- KEYS: 1 rating queue, 2 the stored figures (hash: game → "<number> <JSON>",
--       ``~last`` the last number given)
-- ARGV: 1 the game expected at the queue's head, 2 its figures (JSON), or ""
--       to take only figures already stored (`finish_rating`)
-- Returns the stored "<number> <JSON>", or nil: not the head (or, with "",
-- nothing stored).
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then
  return false
end
local stored = redis.call('HGET', KEYS[2], ARGV[1])
if stored or ARGV[2] == '' then
  return stored
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local number = math.max(now, tonumber(redis.call('HGET', KEYS[2], '~last') or '0') + 1)
number = string.format('%.0f', number)
stored = number .. ' ' .. ARGV[2]
redis.call('HSET', KEYS[2], '~last', number, ARGV[1], stored)
return stored
