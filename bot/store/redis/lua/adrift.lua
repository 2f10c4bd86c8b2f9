#!lua flags=no-writes
-- KEYS: 1 table hash. Whether another primary saved the record last (its
-- ``r``, see save.lua): 1 it did, 0 this one, -1 no record. Reads only.
local r = redis.call('HMGET', KEYS[1], 'v', 'r')
if not r[1] then
  return -1
end
-- #include primary
if r[2] ~= primary then
  return 1
end
return 0
