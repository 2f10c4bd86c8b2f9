-- KEYS: 1 the chat's history hash. Returns the last game number given in the
-- chat (see last.lua).
local hist = KEYS[1]
-- #include last
return last
