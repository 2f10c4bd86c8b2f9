"""`Store` over Redis (redis-py asyncio). Key layout: see `bot.store`.

Round trips: `load` is one (HMGET; `load_with_messages` a read-only script
that also says whether another primary saved the record, `Table.adrift`),
`save` is one (EVALSHA of a script that does
the compare-and-set and the log append in one atomic step, with the timers'
index and the update's claim sent behind it in the same round trip) — the
save that finishes a game four: it first reads the game's log (at the version
it expects) to pack it for the history (`bot.store.packing`), and after the
save publishes the game outside its chat (`RedisStore._publish`: its /replay
number, rating queue entry and players' index, one slot a step).
`delete` (a script) and `migrate` (copy-then-delete: four round trips,
see its notes) are rare.

Redis Cluster: every atomic step touches one hash slot (`tests/bot/test_slots.py`
keeps it so). The save script writes the chat's keys alone (``{<chat>}``);
what it means outside them follows it, a step each: the timers' index
(``<prefix>:deadlines``, a zset of chats) lowered to the record's timer
(``ZADD LT``), and the running update's claim made final. The index holds a
lower bound of each chat's timer, never more: a save only lowers it, after
its record (two savers' lowerings in any order leave the lower of the two,
which is at most either record's timer); the record keeps its own timer
(``d``), and `due` — the one that raises an entry — raises it to that, only
if it is still the score it read, then reads the record again (see `due`).
On one node the follow-ups ride in the save's round trip, sent right behind
it; on a cluster they follow its answer (a round trip more), since two
nodes keep no order between them. A finished game's publishing follows its
save the same way (`RedisStore._publish`), the rating commit is three
one-slot steps (`_RATING_CLAIM_LUA`), and `migrate` is copy-then-delete.
`RedisStore.from_cluster` runs the store on a cluster (``REDIS_CLUSTER``):
there its transactions are one-slot scripts, scripts in a pipeline are sent
whole, the feed subscribes on one node and readiness asks every master
(`one_node` False; deploy/README.md, "Going to Redis Cluster").
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any, TypeVar, cast

import redis.exceptions
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline, PubSub
from redis.asyncio.cluster import ClusterPipeline, RedisCluster
from redis.asyncio.connection import (
    AbstractConnection,
    BlockingConnectionPool,
    ConnectionPool,
    parse_url,
)
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.commands.core import AsyncScript
from redis.crc import key_slot

from bot.ops import metrics
from bot.store import (
    ASIDE_KEEP,
    HISTORY_KEEP,
    PUBLISH_AFTER,
    PUBLISH_BATCH,
    QUEUED_MARK,
    UPDATE_TTL,
    VIEWS_MOVED,
    Store,
    StoreFull,
    StoreReadOnly,
    StoreUnavailable,
    UserPrefs,
    is_view,
)
from bot.store.delivery import Claim, Delivery
from bot.store.delivery import current as current_delivery
from bot.store.models import ChatProfile, GameRecord, PlayerStats, Table, record_of
from bot.store.packing import pack_log, record_json, seated_users, unpack_log, without_user
from engine import Command

# The chat's counter of game numbers (`hist`: its history hash) as `last`:
# the highest number given; a chat from before the counter: the highest game
# its history holds (0: none)
_LAST_LUA = """
  local last = tonumber(redis.call('HGET', hist, 'last') or '-1')
  if last < 0 then
    last = 0
    for _, field in ipairs(redis.call('HKEYS', hist)) do
      if string.sub(field, 1, 2) == 'r:' then
        last = math.max(last, tonumber(string.sub(field, 3)))
      end
    end
  end
"""

# KEYS: 1 table hash, 2 log list, 3 message ids hash, 4 history hash — the
#       chat's keys only, one hash slot (``{<chat>}``): Redis Cluster runs it
# ARGV: 1 expected version, 2 record JSON (its version is the hash's `v`), 3 game_no,
#       4 timer score or "" for none (kept as the hash's ``d``: what `due` checks
#       its index against), 5 seconds the game's keys live on, 6 status (lobby,
#       playing, finished: kept beside the JSON for the games gauge), 7 the
#       history's `GameRecord` JSON of a game this save finishes ("" none),
#       8 how many finished games the history keeps, 9 "1" when the chat's game
#       numbers count (a group's game: not practice), 10 the finished game's
#       whole command log, packed (`bot.store.packing`), 11.. command JSONs
# What the save means outside the chat's slot follows it, one slot a step
# (`RedisStore.save`): the timer's index lowered to the record's timer and the
# running update's claim made final — on one node in the save's own round
# trip, sent right behind it (so each lands after the record it follows).
# A save that brings a new game number raises the chat's counter of game
# numbers (``last`` in the history hash, kept for good with it), so a number
# is never given twice in the chat whatever expires; a chat from before the
# counter starts it past the highest game its history holds.
# A finished game goes into the chat's history (with its whole log) in this
# same atomic step, once: HSETNX on its game number; the oldest games beyond
# the kept number leave the history in it too. What a finished game means
# outside its chat — its /replay number, its place in the rating queue, each
# player's ``played`` index — is written after the save, in steps of one slot
# each (`RedisStore._publish`, which a cut leaves to `publish_finished`).
# The new version is published on the channel named like the table key (the
# Mini App's live views, `bot.webapp.live`): inside the script, so it costs no
# round trip and no viewer ever hears of a version before it is saved — but
# the save that finishes a game, whose version is published by its publishing
# (`RedisStore._publish`): this process hears of it after it knows it saved it,
# not as another process's save in the middle of its own.
#
# Versions are never given twice to one record, whatever Redis forgets: the
# record keeps (``r``) the replication id of the primary that saved it last.
# A primary that has another — a promoted replica, a Redis restarted from a
# file that may have lost its last second — may lack saves the old one made
# (and told players of) after this record's state: its version jumps ahead to
# an epoch of the primary's clock (``TIME`` seconds × 2^20), past any version a
# lost save can have held (given out before the failure, within a second's
# 2^20); while the primary stays, it grows by one. Returns ``{new version,
# 1 when this save put a finished game into the history (else 0), the /replay
# numbers of the games it dropped from the history...}``; ``{0}``: someone
# else saved first.
_SAVE_LUA = (
    """
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then
  return {0}
end
local primary = string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)') or ''
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
"""
    + _LAST_LUA
    + """  if tonumber(ARGV[3]) > last then
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
"""
)

# KEYS: 1 the chat's history hash. ARGV: 1 the game, 2 the /replay number
# this call was given. The game's number, once: the one given first (a
# publisher that lost — a cut save's follow-up and `publish_finished` racing —
# takes back the number it was given, see `RedisStore._publish`). Returns the
# game's number, or 0 when the history no longer has the game.
_NUMBER_LUA = """
if redis.call('HEXISTS', KEYS[1], 'r:' .. ARGV[1]) == 0 then
  return 0
end
redis.call('HSETNX', KEYS[1], 'n:' .. ARGV[1], ARGV[2])
return tonumber(redis.call('HGET', KEYS[1], 'n:' .. ARGV[1]))
"""

# KEYS: 1 rating queue, 2 the game's mark (in the queue's slot). ARGV: 1 the
# game (``<chat>:<game>``), 2 seconds the mark is kept. The game joins the
# queue once, however often its publishing is run: the mark is set with the
# push, and kept far longer than a cut publishing waits to be run again.
_QUEUE_LUA = """
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[2]) then
  redis.call('RPUSH', KEYS[1], ARGV[1])
  return 1
end
return 0
"""

# KEYS: 1 the timers' index. ARGV: 1 a chat, 2 the score `due` read for it,
# 3 its record's timer as `due` read it after ("": none, the chat leaves the
# index). Set only if the score is still the one read: a save meanwhile that
# lowered it (`RedisStore.save`'s ``ZADD LT``) keeps its own.
_RETIME_LUA = """
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at or tonumber(at) ~= tonumber(ARGV[2]) then
  return 0
end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
"""

# KEYS: 1 table hash. The record's version and JSON, and ``1`` when a primary
# other than this one saved it last (its ``r`` is not this primary's
# replication id, see `_SAVE_LUA`: it may lack saves the old primary made and
# told players of); nothing when there is no record. Reads only (no-writes): it
# runs on a read-only replica and in a full Redis as HMGET does — on a replica,
# its primary's id is the one it follows. Sent whole (EVAL), not by its SHA: it
# rides in one pipeline with the update's claim, and a primary whose script
# cache is empty (promoted, restarted) answers it all the same.
_LOAD_LUA = """#!lua flags=no-writes
local got = redis.call('HMGET', KEYS[1], 'v', 'data', 'r')
if not got[2] then
  return {}
end
local primary = string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)') or ''
local adrift = 0
if got[3] ~= primary then
  adrift = 1
end
return {got[1] or '0', got[2], adrift}
"""

# KEYS: 1 table hash. Whether another primary saved the record last (its
# ``r``, see `_SAVE_LUA`): 1 it did, 0 this one, -1 no record. Reads only.
_ADRIFT_LUA = """#!lua flags=no-writes
local r = redis.call('HMGET', KEYS[1], 'v', 'r')
if not r[1] then
  return -1
end
local primary = string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)') or ''
if r[2] ~= primary then
  return 1
end
return 0
"""

# KEYS: 1 the chat's history hash. Returns the last game number given in the
# chat (see `_LAST_LUA`).
_LAST_GAME_LUA = "local hist = KEYS[1]\n" + _LAST_LUA + "return last\n"

# KEYS: 1 message ids hash, 2 table hash
# ARGV: 1 seconds the ids live on when the chat has no record, 2 what to publish
# on the chat's channel ('' nothing: no view's id changed), 3 how many names to
# forget, 4.. those names, then name/id pairs to set.
# The ids live as long as the record does; without a record, they expire on
# their own (a record saved later gives them its time). Returns the record's version.
_MESSAGES_LUA = """
local n = tonumber(ARGV[3])
if n > 0 then
  redis.call('HDEL', KEYS[1], unpack(ARGV, 4, n + 3))
end
if #ARGV > n + 3 then
  redis.call('HSET', KEYS[1], unpack(ARGV, n + 4, #ARGV))
end
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
else
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
if ARGV[2] ~= '' then
  redis.call('PUBLISH', KEYS[2], ARGV[2])
end
return tonumber(redis.call('HGET', KEYS[2], 'v') or '0')
"""


# The rating commit, in three steps of one slot each (Redis Cluster: no step
# spans slots). Before, one script popped the queue's head and wrote the
# overall figures, the chat's and each rated person's "stats" set — four slots
# and more. Now:
#
# 1. the queue's slot (`_RATING_CLAIM_LUA`): if the game is still the queue's
#    head, its new figures (computed from the figures as they were before it)
#    are stored beside the queue — HSETNX-like: the first stored stays, and
#    every process committing this head gets back *that* one and applies it,
#    whatever it computed itself. Not the head: lost (someone else rated it).
# 2. one step a stats key, in that key's slot (`_RATING_APPLY_LUA`, pipelined:
#    one round trip for all): the stored figures written unless this rating
#    was applied to that key already; the people's "stats" sets are SADDed
#    (the same twice as once).
# 3. the queue's slot (`_POP_LUA`): the head popped (if it still is: whoever
#    gets there first) and its stored figures dropped.
#
# A cut (a kill, a lost connection) between them leaves the head in the queue
# with its stored figures: the next worker, of any process, meets it at the
# head and finishes it with the stored figures (`finish_rating`) — it never
# computes again from figures that may hold half of it. The figures stored
# first were computed from clean ones: nothing writes figures for a head
# before its figures are stored, and a head is popped only once its figures
# are written to every key (step 3 follows a step 2 that succeeded), so the
# figures read after seeing the head hold every older game, wholly.
#
# Applied once a key: step 1 gives each head a number that grows along the
# queue (the later of the primary's clock in µs and the last number given
# plus one, `~last`), stored with its figures; each stats hash keeps the
# number of the last rating written to it (`~applied`, a field no player key
# can be: those are ``u<id>``/``c<level>``). Step 2 writes only a number above
# it. Numbers are given in queue order (a head gets its number while it is
# the head, and the next game is the head only once this one is popped, after
# all its keys are written), so "applied ≥ mine" means this rating, or a later
# one written over it, is there already. A bare "last applied == this head"
# would not do: a process slow between its steps 1 and 2 could write a popped
# game's figures over a later game's. The clock in the number keeps it
# growing if `~last` were ever lost (a failover to a replica behind), as the
# save's versions do; a head set aside drops its stored figures with it (a
# process that already holds them may still write them: a set-aside game is
# one whose rating raised, and nothing raises once the figures are stored).
#
# The stored figures live in a hash of the queue's own slot. The queue key has
# no hash tag (its slot is that of its whole name, and a finished game's
# publishing pushes to it under that name), so rather than renaming it — a
# migration of every deployment's queue — the hash is named with a tag
# found to hash to that same slot (`_same_slot_tag`): one slot, no rename.
#
# KEYS: 1 rating queue, 2 the stored figures (hash: game → "<number> <JSON>",
#       ``~last`` the last number given)
# ARGV: 1 the game expected at the queue's head, 2 its figures (JSON), or ""
#       to take only figures already stored (`finish_rating`)
# Returns the stored "<number> <JSON>", or nil: not the head (or, with "",
# nothing stored).
_RATING_CLAIM_LUA = """
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
"""

# KEYS: 1 a stats hash (overall or a chat's); ARGV: 1 the rating's number,
# then player key/JSON pairs. Writes them unless a rating numbered as high was
# applied already (1: written, 0: it was there).
_RATING_APPLY_LUA = """
local applied = tonumber(redis.call('HGET', KEYS[1], '~applied') or '0')
if applied >= tonumber(ARGV[1]) then
  return 0
end
for i = 2, #ARGV - 1, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('HSET', KEYS[1], '~applied', ARGV[1])
return 1
"""

#: the fields of a stats hash that are not a player's figures (`~applied`)
_STATS_MARK = "~"


@functools.cache
def _same_slot_tag(key: str) -> str:
    """A hash tag (``r<n>``, the smallest n) whose slot is `key`'s: a key named
    ``…{r<n>}`` lives in `key`'s slot though `key` has no tag. CRC16 reaches
    every one of the 16,384 slots before n = 160,000 (a tenth of a second, once)."""
    slot = key_slot(key.encode())
    n = 0
    while key_slot(f"r{n}".encode()) != slot:
        n += 1
    return f"r{n}"


# A rating set aside, in two steps of one key each (Redis Cluster: no step
# spans slots), sent in one round trip: the game joins the set-aside list
# (once), then leaves the queue's head (if it is still there: the head is the
# compare-and-set). A cut between leaves it on both — the worker meets it at
# the head again and sets it aside again, listed once — never on neither; a
# head that had moved (another process took the game) takes back the listing
# this call made. KEYS: 1 the games set aside; ARGV: 1 the game, 2 how many
# set aside games are kept. 1: listed now; 0: it was listed already.
_ASIDE_LUA = """
if redis.call('LPOS', KEYS[1], ARGV[1]) then
  return 0
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
return 1
"""

# KEYS: 1 rating queue, 2 the stored figures (one slot: see `_RATING_CLAIM_LUA`);
# ARGV: 1 the game expected at its head. Pops it (1), or nothing when the head
# has moved (0); its stored figures go either way (popped, they are not needed).
_POP_LUA = """
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then
  return 0
end
redis.call('LPOP', KEYS[1])
return 1
"""

# An update's claim (`bot.store.delivery`): KEYS: 1 its key; ARGV: 1 the
# handling's token, 2 what to do (renew: its lease starts again; done: made
# final for 3 seconds; saved: made final by a save, sent right behind it —
# ``done:<token>``, final as ``done`` is; unsaved: that save lost its
# compare-and-set, the lease is the handling's again; release: given back),
# 4 the lease in ms. Only a lease that is still the handling's is touched (one
# that ran out and was taken by another is theirs); a lease that ran out
# untaken is made final all the same.
_DELIVERED_LUA = """
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
"""

# KEYS: 1 the claim; ARGV: 1 now, 2 when the claim is over, 3 its seconds
# (the key's TTL: it never outlives its claim by much)
_CLAIM_LUA = """
local over = redis.call('GET', KEYS[1])
if over and tonumber(over) > tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""

# KEYS: 1 the chat's profile; ARGV: 1 expected version, 2 the profile JSON
# (carrying version + 1). The compare-and-set of /settings: a profile saved
# before versions were kept counts as version 0. Returns {1} saved, {0} not.
_PROFILE_LUA = """
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
"""

# `migrate` (a group become a supergroup) is copy-then-delete, each step a
# script on one chat's slot (see `RedisStore.migrate` for why no move is lost).
#
# The copy, on the NEW chat's slot. KEYS: 1 table hash, 2 log list, 3 message
# ids hash (the new chat's). ARGV: 1 the old chat id, 2 the old record's
# version, 3 its JSON (``chat_id`` rewritten), 4 its ``g``, 5 ``s``, 6 ``r``
# ("" each: none), 7 the ms it has left to live (<= 0: no expiry), 8 how many
# message ids, 9.. their name/id pairs, then the log's lines.
# The copy is marked: ``from`` the old chat, ``cv`` the version it was copied
# at (a save never removes a field, so both stay). It is written when the new
# id holds no record, or holds an earlier copy from this same old chat that
# nobody has played on (its version still ``cv``; a copy is rewritten whole
# from the old record, which is as new or newer: saves there since, message
# ids set there since). A copy played on (version past ``cv``) is the game
# now and stays. Anything else is another game: refused — as is an old record
# older than the copy (its version went back: a game begun anew at the old
# id, not the one copied). Returns {0} refused, {1, v, JSON} kept, {2, v, JSON}
# written: the new id's record as it stands.
_COPY_LUA = """
local cur = redis.call('HMGET', KEYS[1], 'v', 'data', 'from', 'cv')
local v = tonumber(ARGV[2])
if cur[2] then
  if cur[3] ~= ARGV[1] or not cur[4] or v < tonumber(cur[4]) then
    return {0}
  end
  if tonumber(cur[1] or '0') ~= tonumber(cur[4]) then
    return {1, cur[1], cur[2]}
  end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'data', ARGV[3], 'from', ARGV[1], 'cv', ARGV[2])
local fields = {'g', 's', 'r'}
for i = 1, 3 do
  if ARGV[3 + i] ~= '' then
    redis.call('HSET', KEYS[1], fields[i], ARGV[3 + i])
  end
end
local n = tonumber(ARGV[8])
if n > 0 then
  redis.call('HSET', KEYS[3], unpack(ARGV, 9, 8 + 2 * n))
end
for i = 9 + 2 * n, #ARGV, 500 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
local left = tonumber(ARGV[7])
if left > 0 then
  for k = 1, 3 do
    redis.call('PEXPIRE', KEYS[k], left)
  end
end
return {2, ARGV[2], ARGV[3]}
"""

# The old record's delete, on the OLD chat's slot: only while it is still what
# was copied — its version (a save since changes it: its log, its data, its
# time to live with it) and its message ids (set without a save) as read.
# KEYS: 1 table hash, 2 log list, 3 message ids hash (the old chat's). ARGV: 1
# the version copied, 2.. the message ids copied, name/id pairs. 1: deleted;
# 0: it moved on (copy again).
_DROP_LUA = """
if tonumber(redis.call('HGET', KEYS[1], 'v') or '0') ~= tonumber(ARGV[1]) then
  return 0
end
local ids = redis.call('HGETALL', KEYS[3])
if #ids ~= #ARGV - 1 then
  return 0
end
local copied = {}
for i = 2, #ARGV, 2 do
  copied[ARGV[i]] = ARGV[i + 1]
end
for i = 1, #ids, 2 do
  if copied[ids[i]] ~= ids[i + 1] then
    return 0
  end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
"""

# What would be a transaction (MULTI/EXEC, WATCH) is a script of one slot
# instead, on one node and a cluster alike: redis-py's async cluster pipeline
# runs a transaction's commands each in a thread of its own (``asyncio.run``,
# the event loop blocked meanwhile) and cannot parse some answers (HEXISTS);
# a script is one round trip where WATCH took two or more.
#
# KEYS: 1 table hash, 2 history hash, 3 log list; ARGV: 1 the game. What a
# finishing save reads first (`RedisStore._log_before`), at one moment.
_LOG_BEFORE_LUA = """
return {redis.call('HMGET', KEYS[1], 'v', 'g'),
        redis.call('HEXISTS', KEYS[2], 'r:' .. ARGV[1]),
        redis.call('LRANGE', KEYS[3], 0, -1)}
"""

# KEYS: 1 table hash, 2 log list, 3 message ids hash. The chat's keys gone,
# the record's JSON they held returned (its seated people's links go next).
_DELETE_LUA = """
local data = redis.call('HGET', KEYS[1], 'data')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return data
"""

# KEYS: 1 the user's hash. ARGV: 1 language ("": none), 2 started, 3 practice
# games, 4 reviews (`RedisStore.save_user`).
_SAVE_USER_LUA = """
if ARGV[1] == '' then
  redis.call('HDEL', KEYS[1], 'lang')
else
  redis.call('HSET', KEYS[1], 'lang', ARGV[1])
end
redis.call('HSET', KEYS[1], 'started', ARGV[2], 'practices', ARGV[3], 'reviews', ARGV[4])
"""

# KEYS: 1 the user's set of tables. ARGV: 1 a chat, 2 seconds the set lives on.
_LINK_LUA = """
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
"""


# A seated person's link moved from the old chat to the new, in their one set
# (one key: the person's slot) — only if they were linked to the old one, as
# before the move. Sent whole (EVAL): pipelined, one a person. KEYS: 1 the
# person's tables set; ARGV: 1 the old chat, 2 the new.
_RELINK_LUA = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
  redis.call('SADD', KEYS[1], ARGV[2])
  redis.call('SREM', KEYS[1], ARGV[1])
end
return 0
"""

_UNAVAILABLE = (
    redis.exceptions.ConnectionError,  # includes BusyLoadingError
    redis.exceptions.TimeoutError,
    ConnectionError,
    TimeoutError,
)


#: a Redis Cluster that cannot serve a slot now (a master down and not yet
#: replaced, slots not covered): an outage, as a lost connection is
_CLUSTER_DOWN = (
    redis.exceptions.ClusterDownError,  # (a ResponseError: told apart first)
    redis.exceptions.SlotNotCoveredError,
)

T = TypeVar("T")

log = logging.getLogger(__name__)

#: the room a save needs below ``maxmemory``: Redis counts a command's own
#: bytes (a game's record, its log) while it runs, so a Redis closer to its
#: limit than this refuses saves though tiny writes still pass (readiness)
WRITE_ROOM = 64 * 1024


def _a(result: Awaitable[T] | T) -> Awaitable[T]:
    """redis-py types each command as sync-or-async; on the asyncio client it is async."""
    return cast(Awaitable[T], result)


def _str(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


_DONE = "done"  # an update's claim once it was handled


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _claim_of(got: Any) -> Claim:
    """What SET NX GET on an update's key found (`RedisStore._lease`); a
    Redis that cannot write (full, read-only) leaves the update unclaimed."""
    if isinstance(got, redis.exceptions.ResponseError):
        if _is_full(got) or isinstance(got, redis.exceptions.ReadOnlyError):
            return "unclaimed"
        raise got
    if isinstance(got, Exception):
        raise got
    if got is None:
        return "won"
    held = _str(got)
    # (``done:<token>``: made final by a save, `_DELIVERED_LUA`'s ``saved``)
    return "done" if held in (_DONE, "1") or held.startswith(_DONE + ":") else "held"


def _timer(table: Table) -> float | None:
    """When the chat next needs the timer: the earlier of reminder and deadline."""
    times = [t for t in (table.reminder, table.deadline) if t is not None]
    return min(times) if times else None


def _is_full(error: redis.exceptions.ResponseError) -> bool:
    """Redis refused a write for want of memory (``OOM command not allowed…``),
    told directly, from inside a script, or as the reason a MULTI was discarded."""
    if isinstance(error, redis.exceptions.OutOfMemoryError):
        return True
    text = str(error)
    return "OOM " in text or "used memory > 'maxmemory'" in text


def cancelled_meanwhile() -> None:
    """Raise the running task's cancellation if a call of the Redis client
    returned without it. The client sends with ``asyncio.wait_for`` when it has
    a socket timeout, and on Python 3.11 ``wait_for`` returns the send's result
    when the task is cancelled as the send completes, dropping the cancellation
    (python/cpython#86296): a timer loop told to stop then ticks on for good, a
    drained outbox is never done, ``asyncio.timeout`` never times out."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError()


@contextmanager
def _guard() -> Iterator[None]:
    try:
        yield
        cancelled_meanwhile()
    except _CLUSTER_DOWN as e:
        raise StoreUnavailable(str(e) or type(e).__name__) from e
    except redis.exceptions.ResponseError as e:
        if _is_full(e):
            raise StoreFull("Redis is full (maxmemory): nothing was written") from e
        if isinstance(e, redis.exceptions.ReadOnlyError):
            raise StoreReadOnly("Redis is read-only (a replica): nothing was written") from e
        raise
    except _UNAVAILABLE as e:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            # the call was cancelled as it timed out, and the client told it as a
            # timeout: it is the cancellation, which must not pass for an outage
            raise asyncio.CancelledError() from e
        raise StoreUnavailable(str(e) or type(e).__name__) from e


#: a process's connections to Redis at most (`RedisStore.from_url`): an
#: update's calls go one after another, so this many updates, timers, streams
#: opening and the feed's subscriber are served at once; more wait their turn
POOL_CONNECTIONS = 64


class BoundedPool(BlockingConnectionPool):
    """`BlockingConnectionPool` that waits only when it must: while a
    connection is free (or may be opened) and nobody waits for one, it is
    taken at once — no lock, no timer, as redis-py's plain pool takes it; a
    call finding all ``max_connections`` busy, or others waiting, goes the
    blocking way and waits its turn (so none is overtaken). The blocking
    pool's own way costs every call a condition and a timeout."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting = 0

    async def get_connection(
        self, command_name: object = None, *keys: object, **options: object
    ) -> AbstractConnection:
        if self._waiting or not self.can_get_connection():
            self._waiting += 1
            try:
                return await super().get_connection()  # type: ignore[no-untyped-call,no-any-return]
            finally:
                self._waiting -= 1
        connection: AbstractConnection = self.get_available_connection()  # type: ignore[no-untyped-call]
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection


class BlockingSentinelPool(SentinelConnectionPool, BoundedPool):
    """The primary's connections as Sentinel names it (asked again on each new
    connection: a promoted replica is found by itself), at most
    ``max_connections`` of them: a call when all are busy waits its turn, as
    with `BlockingConnectionPool` (`POOL_CONNECTIONS`)."""


class _ClusterScript(AsyncScript):
    """A registered script on a cluster: called on its own, EVALSHA (loaded on
    every master when one lacks it, as redis-py does); added to a pipeline,
    sent whole (EVAL) — redis-py's cluster pipeline refuses EVALSHA, and a
    master could lack the script (restarted, or a replica promoted) with no
    step between to load it."""

    async def __call__(
        self,
        keys: Sequence[Any] | None = None,
        args: Iterable[Any] | None = None,
        client: Any = None,
    ) -> Any:
        if isinstance(client, ClusterPipeline):
            keys = list(keys or [])
            return client.execute_command("EVAL", self.script, len(keys), *keys, *(args or []))
        return await super().__call__(keys, args, client)


#: set while a call holds one of `BoundedCluster`'s turns: a call inside it
#: (a pipeline's redirected command sent again) goes without a turn of its own
_holding_turn: contextvars.ContextVar[bool] = contextvars.ContextVar("turn", default=False)


class BoundedCluster(RedisCluster):
    """`RedisCluster` serving at most ``max_connections`` calls at once, as
    `BoundedPool` does for one node: a call when all are busy waits its turn
    (up to `wait` seconds, then fails as a connection not had). Each call
    holds at most one connection a master, so no master is ever asked for
    more than that many — redis-py's cluster has no waiting of its own: a
    call past a master's ``max_connections`` fails at once (a burst of pages
    opening would be told that Redis is down)."""

    def __init__(self, *args: Any, wait: float = 5.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turns = asyncio.Semaphore(int(kwargs.get("max_connections", POOL_CONNECTIONS)))
        self._wait = wait

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        if _holding_turn.get():
            yield
            return
        if self._turns.locked():
            try:
                async with asyncio.timeout(self._wait):
                    await self._turns.acquire()
            except TimeoutError:
                raise redis.exceptions.ConnectionError("No connection available.") from None
        else:
            await self._turns.acquire()
        held = _holding_turn.set(True)
        try:
            yield
        finally:
            _holding_turn.reset(held)
            self._turns.release()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        async with self.turn():
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> ClusterPipeline:
        if shard_hint:
            return super().pipeline(transaction, shard_hint)
        return _BoundedClusterPipeline(self, transaction)  # type: ignore[abstract]


class _BoundedClusterPipeline(ClusterPipeline):
    """A pipeline of `BoundedCluster`: its round trip takes one turn."""

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        client = self.cluster_client
        assert isinstance(client, BoundedCluster)
        async with client.turn():
            return await super().execute(raise_on_error, allow_redirections)


class RedisStore(Store):
    """Works with clients built with or without ``decode_responses``.

    With `wait_replicas`, each save is followed, in the same round trip, by
    ``WAIT wait_replicas wait_ms``: the person is told of a move once a replica
    has it too (a failover then keeps it). A WAIT that times out still
    answers, counted in ``smuta_redis_wait_timeouts_total``."""

    kind = "redis"
    claims_with_reads = True

    def __init__(
        self,
        client: Redis | RedisCluster,
        prefix: str = "smuta",
        *,
        owns_client: bool = False,
        wait_replicas: int = 0,
        wait_ms: int = 100,
        sentinel: Sentinel | None = None,
    ):
        #: a cluster's own client, for what only a cluster has (its nodes)
        self._cluster = client if isinstance(client, RedisCluster) else None
        # (typed as one node's client: the commands the store sends are the
        # same on both, and a cluster's pipeline takes them as one node's does)
        self._r = client = cast(Redis, client)
        self.prefix = prefix  # every key starts with "<prefix>:"
        self._owns = owns_client
        self.wait_replicas = wait_replicas
        self.wait_ms = wait_ms
        self._sentinel = sentinel  # closed with the store (its connections to the sentinels)
        #: a save's follow-ups that failed (`_follow`), sent again by `due`
        self._unfollowed: list[tuple[str, ...]] = []
        #: one Redis node holds every key (a primary, maybe with replicas):
        #: commands pipelined on one connection run in the order sent. False on
        #: a cluster, whose nodes keep no order between them
        self.one_node = True
        #: this store's own name on the feed: what it publishes, its own feed skips
        self.process = uuid.uuid4().hex[:12]
        #: what must stop before the client closes (the process's feed)
        self.on_close: list[Callable[[], Awaitable[None]]] = []
        self._save_script = client.register_script(_SAVE_LUA)
        self._messages_script = client.register_script(_MESSAGES_LUA)
        self._rating_claim_script = client.register_script(_RATING_CLAIM_LUA)
        self._rating_apply_script = client.register_script(_RATING_APPLY_LUA)
        self._profile_script = client.register_script(_PROFILE_LUA)
        self._aside_script = client.register_script(_ASIDE_LUA)
        self._pop_script = client.register_script(_POP_LUA)
        self._claim_script = client.register_script(_CLAIM_LUA)
        self._delivered_script = client.register_script(_DELIVERED_LUA)
        self._last_game_script = client.register_script(_LAST_GAME_LUA)
        self._number_script = client.register_script(_NUMBER_LUA)
        self._queue_script = client.register_script(_QUEUE_LUA)
        self._retime_script = client.register_script(_RETIME_LUA)
        self._copy_script = client.register_script(_COPY_LUA)
        self._drop_script = client.register_script(_DROP_LUA)
        self._log_before_script = client.register_script(_LOG_BEFORE_LUA)
        self._delete_script = client.register_script(_DELETE_LUA)
        self._save_user_script = client.register_script(_SAVE_USER_LUA)
        self._link_script = client.register_script(_LINK_LUA)
        #: a cluster's nodes' own clients, for pub/sub (`pubsub`), by node name
        self._node_clients: dict[str, Redis] = {}
        self._next_node = 0
        if self._cluster is not None:
            self.one_node = False
            self._scripts_for_cluster()

    def _scripts_for_cluster(self) -> None:
        """Every registered script made a `_ClusterScript` (sent whole in a
        pipeline), whatever its name: one registered later is not missed."""
        for name, script in list(vars(self).items()):
            if isinstance(script, AsyncScript) and not isinstance(script, _ClusterScript):
                setattr(self, name, _ClusterScript(self._r, script.script))

    @classmethod
    def from_url(
        cls,
        url: str,
        prefix: str = "smuta",
        timeout: float = 5.0,
        max_connections: int = POOL_CONNECTIONS,
        wait_replicas: int = 0,
        wait_ms: int = 100,
    ) -> RedisStore:
        """A store with its own client; `close` closes it. A Redis that stops
        answering (a network cut that sends no reset) fails a call after
        `timeout` seconds with `StoreUnavailable`, instead of hanging the update,
        or every timer, until TCP gives up (``?socket_timeout=`` in the URL wins).
        The client keeps at most `max_connections` to Redis: a call when all
        are busy waits for one (up to `timeout`), so a burst — a thousand
        pages opening at once — queues instead of opening a connection each
        and keeping them all once it is over."""
        pool = BoundedPool.from_url(
            url,
            max_connections=max_connections,
            timeout=timeout,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        return cls(
            Redis.from_pool(pool),
            prefix,
            owns_client=True,
            wait_replicas=wait_replicas,
            wait_ms=wait_ms,
        )

    @classmethod
    def from_sentinels(
        cls,
        sentinels: Sequence[tuple[str, int]],
        master: str,
        url: str | None = None,
        prefix: str = "smuta",
        timeout: float = 5.0,
        max_connections: int = POOL_CONNECTIONS,
        wait_replicas: int = 1,
        wait_ms: int = 100,
    ) -> RedisStore:
        """A store on the primary the `sentinels` name `master` (redis-py's
        asyncio `Sentinel`): each new connection asks them where it is, so
        when a replica is promoted the next call reaches it, by itself. `url`
        (``REDIS_URL``), when given, supplies the database and the password
        (its host is the sentinels' to say). The same bounds as `from_url`:
        `timeout` on every call and connection, at most `max_connections`."""
        options: dict[str, Any] = {}
        if url:
            options = {
                k: v for k, v in parse_url(url).items() if k in ("db", "username", "password")
            }
        sentinel = Sentinel(  # type: ignore[no-untyped-call]
            list(sentinels),
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        client = sentinel.master_for(
            master,
            connection_pool_class=BlockingSentinelPool,
            max_connections=max_connections,
            timeout=timeout,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            **options,
        )
        return cls(
            client,
            prefix,
            owns_client=True,
            wait_replicas=wait_replicas,
            wait_ms=wait_ms,
            sentinel=sentinel,
        )

    @classmethod
    def from_cluster(
        cls,
        url: str,
        prefix: str = "smuta",
        timeout: float = 5.0,
        max_connections: int = POOL_CONNECTIONS,
    ) -> RedisStore:
        """A store on the Redis Cluster one of whose nodes `url` names (redis-py
        asyncio `RedisCluster`: it asks that node for the others and for who
        serves which slot, and follows the cluster when slots move or a
        replica is promoted). The same bounds as `from_url`: `timeout` on
        every call and connection, at most `max_connections` calls at once (a
        call more waits its turn, `BoundedCluster`). No WAIT: a save's
        follow-ups are other round trips on other nodes (`one_node`)."""
        client = BoundedCluster.from_url(
            url,
            max_connections=max_connections,
            wait=timeout,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        return cls(client, prefix, owns_client=True)

    def moves_channel(self, chat_id: int) -> str:
        """The channel each save of the chat's record publishes its new version on."""
        return self._table_key(chat_id)

    def pubsub(self) -> PubSub:
        """A pub/sub connection of this store's client (the Mini App's subscriber).
        On a cluster, one to a node of its own: a PUBLISH (the save script's)
        reaches the subscribers of every node, so one node hears every chat.
        Each call takes the next node the client knows — the feed asks anew
        after a break, and a node that went is then not asked again first."""
        if self._cluster is not None:
            return self._node_client(self._cluster).pubsub()
        return self._r.pubsub()

    def _node_client(self, cluster: RedisCluster) -> Redis:
        """A plain client to the cluster's next node (kept: closed with the store)."""
        nodes = cluster.get_nodes() or cluster.startup_nodes
        node = nodes[self._next_node % len(nodes)]
        self._next_node += 1
        if node.name not in self._node_clients:
            options: dict[str, Any] = dict(cluster.get_connection_kwargs())
            for cluster_only in ("max_connections", "response_callbacks"):
                options.pop(cluster_only, None)
            options.update(host=node.host, port=node.port)
            # the feed's one subscriber, and one more while a broken one closes
            pool = ConnectionPool(max_connections=4, **options)
            self._node_clients[node.name] = Redis.from_pool(pool)
        return self._node_clients[node.name]

    # keys --------------------------------------------------------------

    def _table_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:table"

    def _log_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:log"

    def _msgs_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:msgs"

    @property
    def _deadlines_key(self) -> str:
        return f"{self.prefix}:deadlines"

    @property
    def _untimed_key(self) -> str:
        return f"{self.prefix}:untimed"

    def _user_key(self, user_id: int) -> str:
        return f"{self.prefix}:user:{{{user_id}}}"

    def _user_tables_key(self, user_id: int) -> str:
        return f"{self.prefix}:user:{{{user_id}}}:tables"

    def _profile_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:profile"

    def _history_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:history"

    def _stats_key(self, chat_id: int | None) -> str:
        if chat_id is None:
            return f"{self.prefix}:stats"
        return f"{self.prefix}:{{{chat_id}}}:stats"

    def _subs_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:subs"

    def _user_set_key(self, user_id: int, kind: str) -> str:
        return f"{self.prefix}:user:{{{user_id}}}:{kind}"

    @property
    def _queue_key(self) -> str:
        return f"{self.prefix}:rating:queue"

    def _queued_key(self, ref: str) -> str:
        """A finished game's mark of being queued for its rating, in the
        queue's own slot (`_same_slot_tag`)."""
        return f"{self.prefix}:rating:queued:{{{_same_slot_tag(self._queue_key)}}}:{ref}"

    @property
    def _unpublished_key(self) -> str:
        return f"{self.prefix}:unpublished"

    @property
    def _results_key(self) -> str:
        """The figures of the ratings being committed, in the queue's slot."""
        plain = f"{self.prefix}:rating:results"
        if key_slot(plain.encode()) == key_slot(self._queue_key.encode()):
            return plain  # (a prefix with a hash tag of its own)
        return f"{plain}:{{{_same_slot_tag(self._queue_key)}}}"

    # games -------------------------------------------------------------

    async def _read(self, *reads: Callable[[Pipeline], object]) -> list[Any]:
        """`reads` in one round trip — with the running update's claim, when
        nobody has made it yet (`bot.store.delivery`: a lost claim raises
        `Redelivered`, and nothing was changed; a claim Redis cannot write —
        full, read-only — leaves the update unclaimed and the reads stand)."""
        delivery = current_delivery()
        claiming = delivery is not None and delivery.take()
        try:
            with _guard():
                async with self._r.pipeline(transaction=False) as pipe:
                    for read in reads:
                        read(pipe)
                    if claiming:
                        assert delivery is not None
                        self._lease(pipe, delivery)
                    got = await pipe.execute(raise_on_error=False)
                claim = _claim_of(got.pop()) if claiming else None
                for result in got:
                    if isinstance(result, Exception):
                        raise result
        except BaseException as e:
            if claiming:
                assert delivery is not None
                delivery.failed(e)
            raise
        if claim is not None:
            assert delivery is not None
            delivery.made(claim)
        return list(got)

    async def load(self, chat_id: int) -> Table | None:
        [(v, data)] = await self._read(lambda p: p.hmget(self._table_key(chat_id), ["v", "data"]))
        if data is None:
            return None
        table = Table.model_validate_json(data)
        table.version = int(_str(v))
        return table

    async def load_with_messages(self, chat_id: int) -> tuple[Table | None, dict[str, int]]:
        got, raw = await self._read(
            lambda p: p.eval(_LOAD_LUA, 1, self._table_key(chat_id)),
            lambda p: p.hgetall(self._msgs_key(chat_id)),
        )
        ids = {_str(k): int(_str(m)) for k, m in raw.items()}
        if not got:
            return None, ids
        v, data, adrift = got
        table = Table.model_validate_json(data)
        table.version = int(_str(v))
        table.adrift = int(adrift) == 1
        return table, ids

    async def save(self, table: Table, commands: Sequence[Command] = ()) -> bool:
        chat = table.chat_id
        expected = table.version
        data = table.model_copy(update={"version": expected + 1}).model_dump_json()
        timer = _timer(table)
        lines = [c.model_dump_json() for c in commands]
        delivery = current_delivery()
        finishing = delivery if delivery is not None and delivery.finishable else None
        record = record_of(table)
        packed = ""
        if record is not None:
            kept = await self._log_before(table)
            if kept is None:  # someone else saved first
                metrics.cas_conflict()
                return False
            packed = pack_log([*kept, *lines])
        args: list[str] = [
            str(expected),
            data,
            str(table.game_no),
            "" if timer is None else repr(float(timer)),
            str(self.ttl_of(table)),
            table.status,
            "" if record is None else record_json(record),
            str(HISTORY_KEEP),
            "0" if table.practice else "1",
            packed,
            *lines,
        ]
        keys = [
            self._table_key(chat),
            self._log_key(chat),
            self._msgs_key(chat),
            self._history_key(chat),
        ]
        ref = f"{chat}:{table.game_no}"
        # a save that finishes a game first marks it to be published (sent
        # ahead): a cut between the save and the publishing leaves the mark,
        # and `publish_finished` finishes the work
        before = [("ZADD", self._unpublished_key, repr(time.time()), ref)] if record else []
        # what the save means outside its chat's slot, one slot a step, after
        # it: the timers' index lowered to the record's timer (a lower bound:
        # `due` raises it by the record's ``d``), and the running update's
        # claim made final — no round trip of its own (`bot.store.delivery`)
        after: list[tuple[str, ...]] = []
        if timer is not None:
            after.append(("ZADD", self._deadlines_key, "LT", repr(float(timer)), str(chat)))
        if table.practice:
            # a game without a clock, kept where a rollback is looked for
            # (`untimed_adrift`): no timer would come back to it
            untimed = not table.timed and table.status == "playing"
            after.append(("SADD" if untimed else "SREM", self._untimed_key, str(chat)))
        if finishing is not None:
            after.append(self._claim_step(finishing, "saved"))
        with _guard():
            got = await self._run_saving(self._save_script, keys, args, before, after)
        version = int(got[0])
        if not version:
            metrics.cas_conflict()
            if finishing is not None and self.one_node:
                # (made final behind a save that lost: the lease is the
                # handling's again, for the retry it is about to make)
                await self._delivered(finishing, "unsaved")
            return False
        if finishing is not None:
            finishing.final = True
        table.version = version
        table.adrift = False  # saved under this primary
        if record is not None:
            dropped = [int(_str(n)) for n in got[2:]]
            try:
                with _guard():
                    await self._publish(record, chat, int(got[1]) == 1, dropped, version)
            except StoreUnavailable as e:
                # the save is made, and told as made: its publishing, cut here,
                # is finished by `publish_finished` (the mark stays)
                log.warning("a finished game's publishing was cut (%s)", type(e).__name__)
        return True

    async def _publish(
        self,
        record: GameRecord,
        chat: int,
        fresh: bool,
        dropped: Sequence[int] = (),
        version: int | None = None,
    ) -> None:
        """What a finished game means outside its chat, after the save that put
        it into the history, in steps of one slot each: its /replay number
        (the counter, then the index and the history's ``n:<game>``), each
        player's ``played`` index, its place in the rating queue (once: a mark
        beside the queue), the numbers of the games the save dropped out of the
        history taken out of the index, and last its mark to be published.
        Each step may be run again — a cut before the mark goes leaves it to
        `publish_finished` — and gives the same: the number written first
        stays (one given meanwhile is taken back: /replay numbers are never
        given twice, a gap is harmless), the sets and the queue's mark are
        idempotent. `fresh`: the save has just put the game into the history,
        so it has no number yet (a read spared). `chat`: the chat whose history
        has the game now (a chat that moved since: its new id; the game keeps
        its name ``<chat>:<game>`` by the chat it was played in). `version`:
        the record's, told on its channel last (the save script does not tell
        a finishing save's; unknown to a publishing run again: read). Two round
        trips; three when the number is not yet known."""
        game = record.game_no
        ref = f"{record.chat_id}:{game}"
        history = self._history_key(chat)
        index = f"{self.prefix}:replay:index"
        number = 0 if fresh else int(_str(await _a(self._r.hget(history, f"n:{game}")) or "0"))
        given = 0 if number else int(await _a(self._r.incr(f"{self.prefix}:replay:seq")))
        if version is None:
            version = int(_str(await _a(self._r.hget(self._table_key(chat), "v")) or "0"))
        async with self._r.pipeline(transaction=False) as pipe:
            if given:
                pipe.hset(index, str(given), ref)
                await self._number_script(keys=[history], args=[str(game), str(given)], client=pipe)
            for user in sorted({s.user_id for s in record.seats if s.user_id is not None}):
                pipe.sadd(self._user_set_key(user, "played"), str(chat))
            if record.counted:
                marks = [self._queue_key, self._queued_key(ref)]
                await self._queue_script(keys=marks, args=[ref, str(QUEUED_MARK)], client=pipe)
            if dropped:
                pipe.hdel(index, *(str(n) for n in dropped))
            pipe.zrem(self._unpublished_key, ref)
            if version:  # (a cluster's pipeline has no publish)
                pipe.execute_command("PUBLISH", self._table_key(chat), str(version))
            got = await pipe.execute()
        if given and int(got[1]) != given:  # numbered meanwhile, or gone: ours goes back
            await _a(self._r.hdel(index, str(given)))

    async def untimed_adrift(self) -> list[int]:
        """The untimed practice games' chats (``untimed``), each record asked
        whether another primary saved it last (`_ADRIFT_LUA`, read-only, on
        its own slot): a chat whose record is gone leaves the set. One
        pipeline for the lot — the set holds only practice games in play
        without a clock."""
        with _guard():
            members = [int(_str(m)) for m in await _a(self._r.smembers(self._untimed_key))]
            if not members:
                return []
            async with self._r.pipeline(transaction=False) as pipe:
                for chat in members:
                    pipe.eval(_ADRIFT_LUA, 1, self._table_key(chat))
                found = [int(x) for x in await pipe.execute()]
            gone = [str(c) for c, f in zip(members, found, strict=True) if f < 0]
            if gone:
                await _a(self._r.srem(self._untimed_key, *gone))
        return [c for c, f in zip(members, found, strict=True) if f == 1]

    async def publish_finished(self, older_than: float = PUBLISH_AFTER) -> int:
        """Publish the finished games whose save was cut before its publishing
        (`_publish`): those marked more than `older_than` seconds ago, so a
        save's own publishing is not raced while it runs (a race would be
        harmless all the same), the oldest `PUBLISH_BATCH` at most: a backlog
        left by an outage goes a batch a look, never holding the ticker up long.
        How many were published."""
        key = self._unpublished_key
        now = time.time()
        done = 0
        with _guard():
            found = await _a(
                self._r.zrange(
                    key,
                    "-inf",
                    repr(now - older_than),
                    byscore=True,
                    offset=0,
                    num=PUBLISH_BATCH,
                    withscores=True,
                )
            )
            for member, marked in found:
                ref = _str(member)
                played_in, _, game = ref.partition(":")
                chat = await self._where(int(played_in))
                raw = await _a(self._r.hget(self._history_key(chat), f"r:{game}"))
                if raw is None or now - float(marked) > QUEUED_MARK / 2:
                    # the save lost its race (or the game has left the history
                    # since): nothing to publish. A mark nearly as old as the
                    # queue's could queue the game twice: given up, logged.
                    if raw is not None:
                        log.warning("a finished game left unpublished for days: %s", ref)
                    await _a(self._r.zrem(key, ref))
                    continue
                await self._publish(GameRecord.model_validate_json(raw), chat, fresh=False)
                done += 1
        return done

    async def _run_saving(
        self,
        script: Any,
        keys: list[str],
        args: list[str],
        before: Sequence[tuple[str, ...]] = (),
        after: Sequence[tuple[str, ...]] = (),
    ) -> list[Any]:
        """Run a script that saves what a person is told of: `before`'s
        commands sent ahead of it, `after`'s behind it (only once it saved),
        and with `wait_replicas` WAIT last. On one node all in one round trip
        — a connection's commands run in the order sent, so each of `after`
        lands after the save (it may have lost: `after` must be harmless
        then, or undone by the caller). On a cluster they are on other nodes,
        which keep no order between them: `before` first, then the script,
        then — if it saved — `after`, a round trip each. A script the primary
        lacks (a promoted replica's cache starts empty) is sent whole once,
        and the lot again (`before` and `after` must be safe to repeat).
        Returns the script's answer."""
        if not self.one_node:
            if before:
                await self._pipelined(before)
            outcome = list(await script(keys=keys, args=args))
            if after and int(outcome[0]):
                await self._follow(after)
            return outcome
        if not self.wait_replicas and not before and not after:
            return list(await script(keys=keys, args=args))
        for _ in range(2):
            async with self._r.pipeline(transaction=False) as pipe:
                for command in before:
                    pipe.execute_command(*command)
                pipe.evalsha(script.sha, len(keys), *keys, *args)
                for command in after:
                    pipe.execute_command(*command)
                if self.wait_replicas:
                    pipe.execute_command("WAIT", self.wait_replicas, self.wait_ms)
                answers = await pipe.execute(raise_on_error=False)
            for answer in answers[: len(before)]:
                if isinstance(answer, Exception):
                    raise answer
            outcome = answers[len(before)]
            if isinstance(outcome, redis.exceptions.NoScriptError):
                script.sha = await _a(self._r.script_load(script.script))
                continue
            if isinstance(outcome, Exception):
                raise outcome
            followed = answers[len(before) + 1 : len(before) + 1 + len(after)]
            if int(outcome[0]) and any(isinstance(a, Exception) for a in followed):
                await self._follow(after)  # sent again on its own, once
            if self.wait_replicas:
                replicas = answers[-1]
                if isinstance(replicas, Exception):
                    # the save is made (the script answered): only its copy is unknown
                    metrics.wait_timed_out()
                elif int(replicas) < self.wait_replicas and int(outcome[0]):
                    metrics.wait_timed_out()
            return list(outcome)
        raise redis.exceptions.NoScriptError("the save script could not be loaded")

    async def _pipelined(self, commands: Sequence[tuple[str, ...]]) -> None:
        """`commands` in one pipeline (no transaction); the first error raised."""
        async with self._r.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            answers = await pipe.execute(raise_on_error=False)
        for answer in answers:
            if isinstance(answer, Exception):
                raise answer

    async def _follow(self, after: Sequence[tuple[str, ...]]) -> None:
        """What follows a save that is made, sent on its own. The save stands
        and is told as made whatever this meets: what failed is kept and sent
        again by this process's next `due` (each step may come late: a lower
        bound lowered, a claim made final if still the handling's)."""
        try:
            await self._pipelined(after)
        except (redis.exceptions.RedisError, *_UNAVAILABLE) as e:
            log.error("a save's follow-up failed (%s): sent again next tick", type(e).__name__)
            self._unfollowed.extend(after)

    def _claim_step(self, delivery: Delivery, what: str) -> tuple[str, ...]:
        """`_DELIVERED_LUA` as one command (EVAL: pipelined where a script
        the node lacks could not be loaded in between)."""
        args = [delivery.token, what, str(UPDATE_TTL), str(_ms(delivery.lease))]
        return ("EVAL", _DELIVERED_LUA, "1", self._update_key(delivery.update_id), *args)

    async def _log_before(self, table: Table) -> list[str] | None:
        """The log a save that finishes `table`'s game adds to, read at the
        version it expects (None: the record has moved on, the save would lose);
        empty when the history has the game already (the save adds nothing)."""
        chat = table.chat_id
        keys = [self._table_key(chat), self._history_key(chat), self._log_key(chat)]
        with _guard():
            (v, g), kept, log = await self._log_before_script(keys=keys, args=[str(table.game_no)])
        if int(_str(v or "0")) != table.version:
            return None
        if kept or g is None or _str(g) != str(table.game_no):
            return []
        return [_str(line) for line in log]

    async def last_game_no(self, chat_id: int) -> int:
        key = self._history_key(chat_id)
        with _guard():
            last = await self._last_game_script(keys=[key])
        return int(last)

    async def delete(self, chat_id: int) -> None:
        """The chat's keys go in one step of their own slot; the timer before
        them, the seated people's links after them, each a step of its own
        (Redis Cluster: no step spans slots). What a step between may leave is
        harmless: a timer of a record gone is dropped by `due`, a link to a
        game gone is skipped by whoever reads it — while a timer removed
        *after* the record could be a new game's, saved meanwhile."""
        tk = self._table_key(chat_id)
        with _guard():
            await _a(self._r.zrem(self._deadlines_key, str(chat_id)))
            # the record read and its keys deleted in one step (`_DELETE_LUA`)
            keys = [tk, self._log_key(chat_id), self._msgs_key(chat_id)]
            users = seated_users(await self._delete_script(keys=keys))
            if users:
                async with self._r.pipeline(transaction=False) as pipe:
                    for uid in users:
                        pipe.srem(self._user_tables_key(uid), str(chat_id))
                    await pipe.execute()

    async def log(self, chat_id: int) -> list[Command]:
        with _guard():
            items = await _a(self._r.lrange(self._log_key(chat_id), 0, -1))
        return [Command.model_validate_json(item) for item in items]

    async def due(self, now: float, limit: int = 100) -> list[int]:
        """The chats whose timer is due. The timers' index (a zset of chats)
        holds for each at most its record's timer: a save lowers it after
        writing the record (``ZADD LT``), never raises it — only here is it
        raised, to the timer the record keeps (its ``d``), or the chat taken
        out when the record has none. Each step is one slot (Redis Cluster):
        the due chats, then each one's record, then the entries raised — each
        only if its score is still the one read (`_RETIME_LUA`) — then the
        records read again, and an entry lowered once more for a record saved
        between the two reads (its own lowering may have come before ours).
        First, a save's follow-ups that a cut left here (`_follow`) go again."""
        if limit <= 0:
            return []
        key = self._deadlines_key
        with _guard():
            if self._unfollowed:
                unfollowed, self._unfollowed = self._unfollowed, []
                await self._follow(unfollowed)
            found = await _a(
                self._r.zrange(
                    key,
                    "-inf",
                    repr(float(now)),
                    byscore=True,
                    offset=0,
                    num=limit,
                    withscores=True,
                )
            )
            if not found:
                return []
            chats = [int(_str(m)) for m, _ in found]
            timers = await self._timers_of(chats)
            due: list[int] = []
            off: list[tuple[int, float, str]] = []  # (chat, score read, its record's timer)
            for chat, (_, score), timer in zip(chats, found, timers, strict=True):
                if timer != "" and float(timer) <= now:
                    due.append(chat)
                else:
                    off.append((chat, float(score), timer))
            if off:
                await self._retime(off)
        return due

    async def _timers_of(self, chats: Sequence[int]) -> list[str]:
        """Each chat's record's timer (`_timers_from`), read in one pipeline."""
        async with self._r.pipeline(transaction=False) as pipe:
            for chat in chats:
                pipe.hmget(self._table_key(chat), ["v", "d"])
            got = await pipe.execute()
        return await self._timers_from(chats, got)

    async def _timers_from(self, chats: Sequence[int], got: Sequence[Any]) -> list[str]:
        """Each chat's record's timer from its HMGET of ``v`` and ``d``: its
        ``d`` ("": none, or no record); a record saved before timers were kept
        there (or copied by `migrate`) has it read from its JSON."""
        timers = ["" if v is None or d is None else _str(d) for v, d in got]
        unkept = [i for i, (v, d) in enumerate(got) if v is not None and d is None]
        if unkept:
            async with self._r.pipeline(transaction=False) as pipe:
                for i in unkept:
                    pipe.hget(self._table_key(chats[i]), "data")
                for i, data in zip(unkept, await pipe.execute(), strict=True):
                    timer = None if data is None else _timer(Table.model_validate_json(data))
                    timers[i] = "" if timer is None else repr(float(timer))
        return timers

    async def _retime(self, off: Sequence[tuple[int, float, str]]) -> None:
        """The index's entries raised to their records' timers (or taken out),
        then the records read again — after the raise: on one node in its
        pipeline, behind it; on a cluster once it answered — and an entry
        lowered again for any record saved meanwhile."""
        key = self._deadlines_key
        chats = [chat for chat, _, _ in off]
        async with self._r.pipeline(transaction=False) as pipe:
            for chat, score, timer in off:
                await self._retime_script(
                    keys=[key], args=[str(chat), repr(score), timer], client=pipe
                )
            if self.one_node:
                for chat in chats:
                    pipe.hmget(self._table_key(chat), ["v", "d"])
            got = await pipe.execute()
        if self.one_node:
            again = await self._timers_from(chats, got[len(off) :])
        else:
            again = await self._timers_of(chats)
        lower = [
            (chat, now)
            for (chat, _, was), now in zip(off, again, strict=True)
            if now not in ("", was)
        ]
        if lower:
            await self._pipelined([("ZADD", key, "LT", now, str(chat)) for chat, now in lower])

    async def messages(self, chat_id: int) -> dict[str, int]:
        with _guard():
            raw = await _a(self._r.hgetall(self._msgs_key(chat_id)))
        return {_str(k): int(_str(v)) for k, v in raw.items()}

    async def set_messages(self, chat_id: int, ids: dict[str, int | None]) -> int:
        keep = {k: str(v) for k, v in ids.items() if v is not None}
        drop = [k for k, v in ids.items() if v is None]
        # a view's new message is told to other processes (see `bot.store`'s notes)
        told = f"{VIEWS_MOVED}{self.process}" if any(is_view(k) for k in ids) else ""
        args = [str(self.record_ttl), told, str(len(drop)), *drop]
        for name, value in keep.items():
            args += [name, value]
        with _guard():
            version = await self._messages_script(
                keys=[self._msgs_key(chat_id), self._table_key(chat_id)], args=args
            )
        return int(version)

    # users -------------------------------------------------------------

    async def user(self, user_id: int) -> UserPrefs:
        [(lang, started, practices, reviews)] = await self._read(
            lambda p: p.hmget(self._user_key(user_id), ["lang", "started", "practices", "reviews"])
        )
        return UserPrefs.model_validate(
            {
                "user_id": user_id,
                "lang": None if lang is None else _str(lang),
                "started": started is not None and _str(started) == "1",
                "practices": 0 if practices is None else int(_str(practices)),
                # a review after each game unless turned off (absent: on)
                "reviews": reviews is None or _str(reviews) == "1",
            }
        )

    async def save_user(self, prefs: UserPrefs) -> None:
        args = [prefs.lang or "", "1" if prefs.started else "0", str(prefs.practices)]
        with _guard():
            await self._save_user_script(
                keys=[self._user_key(prefs.user_id)], args=[*args, "1" if prefs.reviews else "0"]
            )

    async def user_tables(self, user_id: int) -> set[int]:
        with _guard():
            members = await _a(self._r.smembers(self._user_tables_key(user_id)))
        return {int(_str(m)) for m in members}

    async def link_user(self, user_id: int, chat_id: int, linked: bool = True) -> None:
        key = self._user_tables_key(user_id)
        with _guard():
            if linked:
                await self._link_script(keys=[key], args=[str(chat_id), str(self.record_ttl)])
            else:
                await _a(self._r.srem(key, str(chat_id)))

    # group → supergroup ------------------------------------------------

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        """Copy-then-delete, each step on one slot (Redis Cluster), four round
        trips:

        1. read the old record — version v, JSON, log, message ids, time left —
           and the new id's record, in one pipeline of one-slot reads;
        2. copy it under the new id (`_COPY_LUA`, on the new chat's slot),
           marked as a copy from the old chat at version v;
        3. delete the old keys (`_DROP_LUA`, on the old chat's slot) only if
           the old record is still at v with the message ids read — else back
           to 1, and the copy (nobody played on it) is written anew;
        4. the timer and the seated people's links, one pipeline: the timers'
           index lowered to the new record's timer (as a save does: a save
           there meanwhile lowers it for its own), each person's link moved
           in their own set; the old id's entry is `due`'s to take out.

        No acknowledged move is lost: a save that lands on the old id after 1
        changes its version, so 3 refuses and the move starts again with it; a
        save after 3 finds no record at the version it expects and is refused
        (a button of the old group finds no game there). The one loss left:
        the old and the new id both saved within the same round trip of a move
        (a late press in the old group, a press in the new one): the copy
        played on is kept, the old id's later save dropped.

        A cut between two steps leaves play going on, and the update handled
        again (`bot.store.delivery`: a redelivery after a kill) finishes the
        move — none of it done twice:
        - after 2: both records. The old one is still the game (its timer
          fires there, the new id has none yet, so nothing acts twice); the
          new id shows it too. Moving again rewrites the copy from the old
          one (or keeps it, if it was played on), then goes on with 3.
        - after 3: the copy alone, no timer under the new id yet (the old
          one's is dropped by `due`: its record is gone). Moving again finds
          the old id empty and the new id's record a copy from it: it does
          4 and answers True, as the first time.
        - inside 4: each command is of one key — the new id's timer in the
          index or not yet; a link moved or not (a link to a gone game is
          skipped by whoever reads it). Moving again does 4 anew.

        The copy keeps the record's version, its ``g``, ``s`` and ``r`` (its
        versions go on from where they were) and the time it has left.
        False when there is nothing to move, or the new id holds another game."""
        if old_chat_id == new_chat_id:
            return False
        while True:
            old, new = await self._migrate_read(old_chat_id, new_chat_id)
            if old is None:
                # nothing at the old id: moved already (a cut after its delete,
                # or the update handled again) — or never anything to move
                if new is None or new[2] != str(old_chat_id):
                    return False
                now = new[0], new[1]
                users = seated_users(now[1])
                break
            copied = await self._migrate_copy(old_chat_id, new_chat_id, old)
            if copied is None:
                return False
            if await self._migrate_drop(old_chat_id, old):
                now = copied
                users = seated_users(old["data"])
                break
        await self._migrate_links_and_timer(old_chat_id, new_chat_id, now, users)
        return True

    async def _migrate_read(
        self, old_chat_id: int, new_chat_id: int
    ) -> tuple[dict[str, Any] | None, tuple[int, str, str | None] | None]:
        """Step 1: the old record (None: none) and the new id's (version,
        JSON, ``from``; None: none), in one round trip of one-slot reads."""
        old_tk = self._table_key(old_chat_id)
        with _guard():
            async with self._r.pipeline(transaction=False) as pipe:
                pipe.hmget(old_tk, ["v", "data", "g", "s", "r"])
                pipe.lrange(self._log_key(old_chat_id), 0, -1)
                pipe.hgetall(self._msgs_key(old_chat_id))
                pipe.pttl(old_tk)  # ms; < 0: none
                pipe.hmget(self._table_key(new_chat_id), ["v", "data", "from"])
                (
                    (v, data, g, status, primary),
                    log,
                    msgs,
                    left,
                    (nv, ndata, origin),
                ) = await pipe.execute()
        new = None
        if ndata is not None:
            new = (int(_str(nv or "0")), _str(ndata), None if origin is None else _str(origin))
        if data is None:
            return None, new
        old = {
            "v": int(_str(v or "0")),
            "data": _str(data),
            "g": "" if g is None else _str(g),
            "s": "" if status is None else _str(status),
            "r": "" if primary is None else _str(primary),
            "log": [_str(line) for line in log],
            "msgs": {_str(k): _str(m) for k, m in msgs.items()},
            "left": int(left),
        }
        return old, new

    async def _migrate_copy(
        self, old_chat_id: int, new_chat_id: int, old: dict[str, Any]
    ) -> tuple[int, str] | None:
        """Step 2 (`_COPY_LUA`): the new id's record after it (version, JSON);
        None when the new id holds another game."""
        table = Table.model_validate_json(old["data"])
        table.chat_id = new_chat_id
        table.version = old["v"]
        msgs: dict[str, str] = old["msgs"]
        args = [
            str(old_chat_id),
            str(old["v"]),
            table.model_dump_json(),
            old["g"],
            old["s"],
            old["r"],
            str(old["left"]),
            str(len(msgs)),
            *(x for pair in msgs.items() for x in pair),
            *old["log"],
        ]
        keys = [
            self._table_key(new_chat_id),
            self._log_key(new_chat_id),
            self._msgs_key(new_chat_id),
        ]
        with _guard():
            got = await self._copy_script(keys=keys, args=args)
        if int(got[0]) == 0:
            return None
        return int(_str(got[1])), _str(got[2])

    async def _migrate_drop(self, old_chat_id: int, old: dict[str, Any]) -> bool:
        """Step 3 (`_DROP_LUA`): the old keys deleted if the old record is
        still the one copied; False: it moved on."""
        msgs: dict[str, str] = old["msgs"]
        keys = [
            self._table_key(old_chat_id),
            self._log_key(old_chat_id),
            self._msgs_key(old_chat_id),
        ]
        args = [str(old["v"]), *(x for pair in msgs.items() for x in pair)]
        with _guard():
            return int(await self._drop_script(keys=keys, args=args)) == 1

    async def _migrate_links_and_timer(
        self, old_chat_id: int, new_chat_id: int, now: tuple[int, str], users: list[int]
    ) -> None:
        """Step 4: one pipeline of one-key commands — the timers' index lowered
        to the new record's timer (as a save does, after the record it
        follows: a save since lowers it for its own), and each person's link
        moved (`_RELINK_LUA`). The old id's entry is left to `due`, which
        takes out an entry whose record is gone."""
        timer = _timer(Table.model_validate_json(now[1]))
        with _guard():
            async with self._r.pipeline(transaction=False) as pipe:
                if timer is not None:
                    pipe.zadd(self._deadlines_key, {str(new_chat_id): timer}, lt=True)
                for uid in users:
                    pipe.eval(
                        _RELINK_LUA,
                        1,
                        self._user_tables_key(uid),
                        str(old_chat_id),
                        str(new_chat_id),
                    )
                await pipe.execute()

    # a chat's home -----------------------------------------------------

    async def profile(self, chat_id: int) -> ChatProfile | None:
        with _guard():
            raw = await _a(self._r.get(self._profile_key(chat_id)))
        return None if raw is None else ChatProfile.model_validate_json(raw)

    async def save_profile(self, profile: ChatProfile) -> bool:
        """The compare-and-set of /settings (the chat's slot), after the
        author's index of the chats whose settings they made (what /forgetme
        sweeps; the author's slot), a step of its own: a cut or a lost race
        leaves an index entry too many, which is harmless (/forgetme checks
        the author) — never a profile its author's index lacks. On one node
        both in one round trip (the index sent ahead)."""
        data = profile.model_copy(update={"version": profile.version + 1}).model_dump_json()
        keys, args = [self._profile_key(profile.chat_id)], [str(profile.version), data]
        before: list[tuple[str, ...]] = []
        if profile.owner_id is not None:
            owns = self._user_set_key(profile.owner_id, "owns")
            before.append(("SADD", owns, str(profile.chat_id)))
        with _guard():
            [ok] = await self._run_saving(self._profile_script, keys, args, before)
        if int(ok) != 1:
            metrics.cas_conflict()
            return False
        profile.version += 1
        return True

    async def history(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        key = self._history_key(chat_id)
        with _guard():
            fields = [_str(f) for f in await _a(self._r.hkeys(key))]
            games = sorted((int(f[2:]) for f in fields if f.startswith("r:")), reverse=True)
            games = games[:limit]
            if not games:
                return []
            names = [x for g in games for x in (f"r:{g}", f"n:{g}")]
            values = await _a(self._r.hmget(key, names))
        out = []
        for i in range(0, len(values), 2):
            if values[i] is not None:
                record = GameRecord.model_validate_json(values[i])
                record.number = int(_str(values[i + 1] or "0"))
                out.append(record)
        return out

    async def _where(self, chat_id: int) -> int:
        seen: set[int] = set()
        while chat_id not in seen:
            seen.add(chat_id)
            new = await _a(self._r.hget(f"{self.prefix}:moved", str(chat_id)))
            if new is None:
                break
            chat_id = int(_str(new))
        return chat_id

    async def game_at(self, chat_id: int, game_no: int) -> tuple[GameRecord, list[Command]] | None:
        with _guard():
            chat = await self._where(chat_id)
            raw, log, number = await _a(
                self._r.hmget(
                    self._history_key(chat), [f"r:{game_no}", f"l:{game_no}", f"n:{game_no}"]
                )
            )
        if raw is None:
            return None
        record = GameRecord.model_validate_json(raw)
        record.number = int(_str(number or "0"))
        return record, unpack_log(_str(log or ""))

    async def game_by_number(self, number: int) -> tuple[GameRecord, list[Command]] | None:
        with _guard():
            ref = await _a(self._r.hget(f"{self.prefix}:replay:index", str(number)))
        if ref is None:
            return None
        chat, game = _str(ref).split(":")
        return await self.game_at(int(chat), int(game))

    async def rating_head(self) -> str | None:
        with _guard():
            head = await _a(self._r.lindex(self._queue_key, 0))
        return None if head is None else _str(head)

    async def stats(self, chat_id: int | None, keys: Sequence[str] = ()) -> dict[str, PlayerStats]:
        key = self._stats_key(chat_id)
        with _guard():
            if keys:
                values = await _a(self._r.hmget(key, list(keys)))
                found = dict(zip(keys, values, strict=True))
            else:
                found = {_str(k): v for k, v in (await _a(self._r.hgetall(key))).items()}
        return {
            k: PlayerStats.model_validate_json(v)
            for k, v in found.items()
            if v is not None and not k.startswith(_STATS_MARK)
        }

    async def commit_rating(
        self,
        head: str,
        chat_id: int,
        overall: Sequence[PlayerStats],
        local: Sequence[PlayerStats],
        users: Sequence[int],
    ) -> bool:
        """Three round trips, a slot each (see `_RATING_CLAIM_LUA`): the
        figures stored by the queue's head (or the ones stored there first),
        written to each stats key, the head popped."""
        figures = {
            "chat": chat_id,
            "overall": [[p.key, p.model_dump_json()] for p in overall],
            "local": [[p.key, p.model_dump_json()] for p in local],
            "users": list(users),
        }
        return await self._commit_stored(head, json.dumps(figures, separators=(",", ":")))

    async def finish_rating(self, head: str) -> bool:
        return await self._commit_stored(head, "")

    async def _commit_stored(self, head: str, figures: str) -> bool:
        queue = [self._queue_key, self._results_key]
        with _guard():
            stored = await self._rating_claim_script(keys=queue, args=[head, figures])
            if stored is None:
                return False
            number, _, raw = _str(stored).partition(" ")
            await self._write_figures(number, json.loads(raw))
            await self._pop_script(keys=queue, args=[head])
        return True

    async def _write_figures(self, number: str, figures: dict[str, Any]) -> None:
        """The rating's second step: its stored figures written to each stats
        key (each in its own slot), unless there already, in one round trip.
        EVALSHA is sent bare — a `Script` in a pipeline asks SCRIPT EXISTS
        first, a round trip more each time — and a Redis that lost its
        scripts (restarted) has it loaded and everything sent again: a write
        made twice is made once (``~applied``; SADD)."""
        chat = int(figures["chat"])
        for _ in range(2):
            async with self._r.pipeline(transaction=False) as pipe:
                for key, pairs in (
                    (self._stats_key(None), figures["overall"]),
                    (self._stats_key(chat), figures["local"]),
                ):
                    if pairs:
                        flat = [x for pair in pairs for x in pair]
                        sha = self._rating_apply_script.sha  # (a cluster's pipeline has no evalsha)
                        pipe.execute_command("EVALSHA", sha, 1, key, number, *flat)
                for uid in figures["users"]:
                    pipe.sadd(self._user_set_key(int(uid), "stats"), str(chat))
                results = await pipe.execute(raise_on_error=False)
            if not any(isinstance(r, redis.exceptions.NoScriptError) for r in results):
                break
            self._rating_apply_script.sha = _str(await _a(self._r.script_load(_RATING_APPLY_LUA)))
        for result in results:
            if isinstance(result, Exception):
                raise result

    async def set_aside_rating(self, head: str) -> bool:
        with _guard():
            async with self._r.pipeline(transaction=False) as pipe:
                aside = [f"{self.prefix}:rating:aside"]
                await self._aside_script(keys=aside, args=[head, str(ASIDE_KEEP)], client=pipe)
                queue = [self._queue_key, self._results_key]
                await self._pop_script(keys=queue, args=[head], client=pipe)
                listed, popped = await pipe.execute()
            if int(listed) == 1 and int(popped) == 0:
                await _a(self._r.lrem(aside[0], -1, head))
        return int(popped) == 1

    async def set_aside(self) -> list[str]:
        with _guard():
            found = await _a(self._r.lrange(f"{self.prefix}:rating:aside", 0, -1))
        return [_str(x) for x in found]

    async def stat_chats(self, user_id: int) -> set[int]:
        with _guard():
            found = await _a(self._r.smembers(self._user_set_key(user_id, "stats")))
        return {int(_str(m)) for m in found}

    async def subscribers(self, chat_id: int) -> dict[int, str]:
        with _guard():
            raw = await _a(self._r.hgetall(self._subs_key(chat_id)))
        return {int(_str(k)): _str(v) for k, v in raw.items()}

    async def subscribe(self, chat_id: int, user_id: int, state: str | None) -> None:
        """The chat's subscribers and the person's index of them (what
        /forgetme sweeps), two steps of their own slots in one round trip:
        the index is written before a subscription and cleared after one, so
        whatever a cut between them leaves is an index entry too many —
        harmless (/forgetme deletes a field that is not there)."""
        mine = self._user_set_key(user_id, "subs")
        with _guard():
            async with self._r.pipeline(transaction=False) as pipe:
                if state is None:
                    pipe.hdel(self._subs_key(chat_id), str(user_id))
                    pipe.srem(mine, str(chat_id))
                else:
                    pipe.sadd(mine, str(chat_id))
                    pipe.hset(self._subs_key(chat_id), str(user_id), state)
                await pipe.execute()

    async def user_chats(self, user_id: int) -> set[int]:
        kinds = ("tables", "played", "stats", "subs", "owns")
        with _guard():
            async with self._r.pipeline(transaction=False) as pipe:
                for kind in kinds:
                    pipe.smembers(self._user_set_key(user_id, kind))
                found = await pipe.execute()
        return {int(_str(chat)) for members in found for chat in members}

    async def forget_user(self, user_id: int) -> None:
        """Every trace of the person, a step a key (Redis Cluster: no step
        spans slots), each one that may be done twice: their traces in the
        chats first, then everyone's figures, and their own keys last — the
        sets that say where their traces are go only once the traces are gone,
        so /forgetme cut short and asked again finds the rest."""
        key = f"u{user_id}"
        chats = await self.user_chats(user_id)
        await self.delete(user_id)  # their practice game (its chat is theirs)
        with _guard():
            subs = await _a(self._r.smembers(self._user_set_key(user_id, "subs")))
            rated = await _a(self._r.smembers(self._user_set_key(user_id, "stats")))
            played = await _a(self._r.smembers(self._user_set_key(user_id, "played")))
            async with self._r.pipeline(transaction=False) as pipe:
                for chat in subs:
                    pipe.hdel(self._subs_key(int(_str(chat))), str(user_id))
                pipe.hdel(self._stats_key(None), key)
                for chat in rated:
                    pipe.hdel(self._stats_key(int(_str(chat))), key)
                for chat_id in chats:  # the «start the bot» notes about them
                    pipe.hdel(self._msgs_key(chat_id), f"unreachable:{user_id}")
                await pipe.execute()
            for chat_id in chats:  # the settings they made have no author now
                raw = await _a(self._r.get(self._profile_key(chat_id)))
                if raw is not None:
                    profile = ChatProfile.model_validate_json(raw)
                    if profile.owner_id == user_id:
                        profile.owner_id = None
                        await _a(self._r.set(self._profile_key(chat_id), profile.model_dump_json()))
            for chat in played:
                hk = self._history_key(int(_str(chat)))
                raw = await _a(self._r.hgetall(hk))
                changes = {}
                for field, value in raw.items():
                    if _str(field).startswith("r:"):
                        scrubbed = without_user(_str(value), user_id)
                        if scrubbed is not None:
                            changes[_str(field)] = scrubbed
                if changes:
                    await _a(self._r.hset(hk, mapping=changes))
            # their own keys (one slot: ``{<user id>}``), the index of their traces last
            await _a(
                self._r.delete(
                    self._user_key(user_id),
                    *(
                        self._user_set_key(user_id, kind)
                        for kind in ("subs", "stats", "played", "tables", "owns")
                    ),
                )
            )

    async def migrate_home(self, old_chat_id: int, new_chat_id: int) -> None:
        """The chat's home copied under its new id, then the global maps told,
        then the old copy deleted — in one round trip, a step a key or a
        chat's keys (Redis Cluster: no step spans slots), in that order: a
        cut between steps leaves the old home beside a copy, never neither,
        and the update asked again (its claim given back) copies it anew."""
        if old_chat_id == new_chat_id:
            return
        old, new = old_chat_id, new_chat_id
        with _guard():
            profile = await _a(self._r.get(self._profile_key(old)))
            history = {
                _str(k): _str(v)
                for k, v in (await _a(self._r.hgetall(self._history_key(old)))).items()
            }
            stats = await _a(self._r.hgetall(self._stats_key(old)))
            subs = await _a(self._r.hgetall(self._subs_key(old)))
            users: set[int] = {int(_str(u)) for u in subs}
            for field, raw in list(history.items()):
                if field.startswith("r:"):
                    record = GameRecord.model_validate_json(raw)
                    record.chat_id = new
                    history[field] = record_json(record)
                    users |= {s.user_id for s in record.seats if s.user_id is not None}
            async with self._r.pipeline(transaction=False) as pipe:
                if profile is not None:
                    moved = ChatProfile.model_validate_json(profile)
                    moved.chat_id = new
                    pipe.set(self._profile_key(new), moved.model_dump_json())
                if history:
                    pipe.hset(self._history_key(new), mapping=history)
                if stats:
                    pipe.hset(self._stats_key(new), mapping=stats)
                if subs:
                    pipe.hset(self._subs_key(new), mapping=subs)
                numbers = {
                    value: f"{new}:{field[2:]}"
                    for field, value in history.items()
                    if field.startswith("n:")
                }
                if numbers:
                    pipe.hset(f"{self.prefix}:replay:index", mapping=numbers)
                pipe.hset(f"{self.prefix}:moved", str(old), str(new))
                pipe.delete(
                    self._profile_key(old),
                    self._history_key(old),
                    self._stats_key(old),
                    self._subs_key(old),
                )
                await pipe.execute()
            # the sets: the old chat's id becomes the new one's, where it was
            for u in users:
                for kind in ("played", "stats", "subs"):
                    key = self._user_set_key(u, kind)
                    if await _a(self._r.srem(key, str(old))):
                        await _a(self._r.sadd(key, str(new)))

    # updates ----------------------------------------------------------

    def _update_key(self, update_id: int) -> str:
        return f"{self.prefix}:update:{update_id}"

    def _lease(self, pipe: Pipeline, delivery: Delivery, final: bool = False) -> None:
        """SET NX GET: nil when it was free (now this handling's lease, or
        ``done`` when `final`); else what holds it — a lease's token, ``done``
        (``1``: a claim from before leases, final too)."""
        key = self._update_key(delivery.update_id)
        if final:
            pipe.set(key, _DONE, nx=True, get=True, ex=UPDATE_TTL)
        else:
            pipe.set(key, delivery.token, nx=True, get=True, px=_ms(delivery.lease))

    async def first_delivery(self, delivery: Delivery, final: bool = False) -> Claim:
        with _guard():
            async with self._r.pipeline(transaction=False) as pipe:
                self._lease(pipe, delivery, final)
                [got] = await pipe.execute(raise_on_error=False)
            return _claim_of(got)

    async def _delivered(self, delivery: Delivery, what: str) -> int:
        args = [delivery.token, what, str(UPDATE_TTL), str(_ms(delivery.lease))]
        with _guard():
            done = await self._delivered_script(
                keys=[self._update_key(delivery.update_id)], args=args
            )
        return int(done)

    async def renew_delivery(self, delivery: Delivery) -> bool:
        return await self._delivered(delivery, "renew") == 1

    async def finish_delivery(self, delivery: Delivery) -> None:
        await self._delivered(delivery, "done")

    async def release_delivery(self, delivery: Delivery) -> None:
        await self._delivered(delivery, "release")

    async def claim(self, name: str, now: float, seconds: int) -> bool:
        args = [repr(float(now)), repr(float(now + seconds)), str(max(1, seconds))]
        with _guard():
            ok = await self._claim_script(keys=[f"{self.prefix}:claim:{name}"], args=args)
        return int(ok) == 1

    # health -----------------------------------------------------------

    async def ping(self) -> None:
        """`INFO memory`: an answer, and room to write — a Redis within
        `WRITE_ROOM` of its ``maxmemory`` with ``noeviction`` refuses writes
        as big as a save (the command's own bytes count: `StoreFull`)."""
        with _guard():
            if self._cluster is not None:
                # every master's: a full one refuses the saves of its slots
                cluster = self._cluster
                found = await cluster.info("memory", target_nodes=RedisCluster.PRIMARIES)
                infos = list(found.values()) if len(cluster.get_primaries()) > 1 else [found]
            else:
                infos = [await _a(self._r.info("memory"))]
        for info in infos:
            limit = int(info.get("maxmemory", 0))
            used = int(info.get("used_memory", 0))
            if _str(info.get("maxmemory_policy", "")) != "noeviction" or not limit:
                continue
            if used + WRITE_ROOM > limit:
                raise StoreFull(f"Redis is full: {used} of {limit} bytes used (maxmemory)")

    async def count_games(self) -> dict[str, int]:
        """SCANs the game records (``<prefix>:{*}:table``, 1000 keys a step) and
        reads each one's status; a record saved before statuses were kept
        beside it is read whole, once, until its next save."""
        counts: dict[str, int] = {}
        pattern = f"{self.prefix}:{{*}}:table"
        with _guard():
            batch: list[Any] = []
            async for key in self._r.scan_iter(match=pattern, count=1000):
                batch.append(key)
                if len(batch) >= 1000:
                    await self._count(batch, counts)
                    batch = []
            if batch:
                await self._count(batch, counts)
        return counts

    async def _count(self, keys: list[Any], counts: dict[str, int]) -> None:
        async with self._r.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hget(key, "s")
            found = await pipe.execute()
        legacy = [k for k, s in zip(keys, found, strict=True) if s is None]
        for s in found:
            if s is not None:
                counts[_str(s)] = counts.get(_str(s), 0) + 1
        if legacy:
            async with self._r.pipeline(transaction=False) as pipe:
                for key in legacy:
                    pipe.hget(key, "data")
                for data in await pipe.execute():
                    if data is not None:  # expired meanwhile: not counted
                        status = Table.model_validate_json(data).status
                        counts[status] = counts.get(status, 0) + 1

    async def close(self) -> None:
        while self.on_close:
            await self.on_close.pop()()
        if self._owns:
            with _guard():
                await self._r.aclose()
        while self._node_clients:
            with _guard():
                await self._node_clients.popitem()[1].aclose()
        if self._sentinel is not None:
            for client in self._sentinel.sentinels:
                with _guard():
                    await client.aclose()


# Every other call of the store makes the running update's claim on its own
# first (`bot.store.delivery`), or waits for the read making it: nothing is
# written for an update before it is known to be its first delivery.
_CLAIM_INSIDE = {
    "load",
    "load_with_messages",
    "user",
    "first_delivery",
    "renew_delivery",
    "finish_delivery",
    "release_delivery",
}


def _claimed_first(call: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    @functools.wraps(call)
    async def claimed(self: RedisStore, *args: Any, **kwargs: Any) -> T:
        delivery = current_delivery()
        if delivery is not None:
            await delivery.settle(self.first_delivery)
        return await call(self, *args, **kwargs)

    return claimed


for _name in sorted(Store.__abstractmethods__ - _CLAIM_INSIDE):
    if inspect.iscoroutinefunction(getattr(RedisStore, _name)):
        setattr(RedisStore, _name, _claimed_first(getattr(RedisStore, _name)))


__all__ = ["RedisStore"]
