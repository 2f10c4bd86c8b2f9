-- An update's claim (`bot.store.delivery`): KEYS: 1 its key; ARGV: 1 the
-- handling's token, 2 what to do (renew: its lease starts again; done: made
-- final for 3 seconds; saved: made final by a save, sent right behind it —
-- ``done:<token>``, final as ``done`` is; unsaved: that save lost its
-- compare-and-set, the lease is the handling's again; release: given back),
-- 4 the lease in ms. Only a lease that is still the handling's is touched (one
-- that ran out and was taken by another is theirs); a lease that ran out
-- untaken is made final all the same.
local held = redis.call('GET', KEYS[1])
if ARGV[2] == 'unsaved' then
  if held ~= 'done:' .. ARGV[1] then return 0 end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
  return 1
end
if held and held ~= ARGV[1] then
  return 0
end
if ARGV[2] == 'renew' then
  if not held then return 0 end
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
elseif ARGV[2] == 'done' then
  redis.call('SET', KEYS[1], 'done', 'EX', ARGV[3])
elseif ARGV[2] == 'saved' then
  redis.call('SET', KEYS[1], 'done:' .. ARGV[1], 'EX', ARGV[3])
elseif held then
  redis.call('DEL', KEYS[1])
end
return 1
