-- A seated person's link moved from the old chat to the new, in their one set
-- (one key: the person's slot) — only if they were linked to the old one, as
-- before the move. Sent whole (EVAL): pipelined, one a person. KEYS: 1 the
-- person's tables set; ARGV: 1 the old chat, 2 the new.
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
  redis.call('SADD', KEYS[1], ARGV[2])
  redis.call('SREM', KEYS[1], ARGV[1])
end
return 0
