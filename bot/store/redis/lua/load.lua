#!lua flags=no-writes
-- KEYS: 1 table hash. The record's version and JSON, and ``1`` when a primary
-- other than this one saved it last (its ``r`` is not this primary's
-- replication id, see save.lua: it may lack saves the old primary made and
-- told players of); nothing when there is no record. Reads only (no-writes): it
-- runs on a read-only replica and in a full Redis as HMGET does — on a replica,
-- its primary's id is the one it follows. Sent whole (EVAL), not by its SHA: it
-- rides in one pipeline with the update's claim, and a primary whose script
-- cache is empty (promoted, restarted) answers it all the same.
local got = redis.call('HMGET', KEYS[1], 'v', 'data', 'r')
if not got[2] then
  return {}
end
-- #include primary
local adrift = 0
if got[3] ~= primary then
  adrift = 1
end
return {got[1] or '0', got[2], adrift}
