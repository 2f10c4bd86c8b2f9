-- The chat's counter of game numbers (`hist`: its history hash) as `last`:
-- the highest number given; a chat from before the counter: the highest game
-- its history holds (0: none).
-- A fragment, not a script: included where `hist` is set (``-- #include last``
-- in save.lua and last_game.lua).
  local last = tonumber(redis.call('HGET', hist, 'last') or '-1')
  if last < 0 then
    last = 0
    for _, field in ipairs(redis.call('HKEYS', hist)) do
      if string.sub(field, 1, 2) == 'r:' then
        last = math.max(last, tonumber(string.sub(field, 3)))
      end
    end
  end
