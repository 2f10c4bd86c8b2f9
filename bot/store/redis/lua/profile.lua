-- KEYS: 1 the chat's profile; ARGV: 1 expected version, 2 the profile JSON
-- (carrying version + 1). The compare-and-set of /settings: a profile saved
-- before versions were kept counts as version 0. Returns {1} saved, {0} not.
local raw = redis.call('GET', KEYS[1])
local v = 0
if raw then
  v = tonumber(cjson.decode(raw)['version'] or 0)
end
if v ~= tonumber(ARGV[1]) then
  return {0}
end
redis.call('SET', KEYS[1], ARGV[2])
return {1}
