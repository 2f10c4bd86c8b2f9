-- This primary's replication id as `primary` (a replica's: the primary it
-- follows), to compare with the ``r`` a record keeps of the primary that saved
-- it last (see save.lua). A fragment, not a script: included where a script
-- asks (``-- #include primary`` in save.lua, load.lua and adrift.lua).
local primary = string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)') or ''
