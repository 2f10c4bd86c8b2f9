"""Where strong's answer differs from the one-ply leader, is it better on fresh worlds?"""

import dataclasses
import json
import math
import sys
from pathlib import Path

from engine import GameState, pending
from engine.ai import LEVELS
from engine.ai import search as S
from engine.ai.evaluate import DEFAULT, value
from engine.ai.lookahead import NormalConfig, ranked
from engine.ai.playout import ENDGAME_CAP, play_until_turn_of
from engine.api import playout_step
from engine.cards import catalog_for
from engine.hidden import copy_state, mix, observe

N = int(sys.argv[2])
cfg = json.loads(sys.argv[3])
conf = dataclasses.replace(S.STRONG, **cfg)
tot = []
for k, line in enumerate(Path(sys.argv[1]).read_text().splitlines()):
    st = GameState.from_json(json.loads(line)["state"])
    d = pending(st)
    seed = mix(st.seed, d.id, d.seat, LEVELS.index("strong"))
    obs = observe(st, d.seat)
    cat = catalog_for(st.rules)
    first = ranked(obs, d.kind, d.options, seed, NormalConfig(samples=6))
    lead = d.options[first[0][1]]
    got = S.strong(obs, d.kind, d.options, seed, conf)
    if got == lead:
        continue
    diffs = []
    for w in range(N):
        world = obs.world(seed + 777777 + w)
        v = []
        for c in (lead, got):
            s = copy_state(world)
            ask = playout_step(s, c)
            play_until_turn_of(s, ask, -1, ENDGAME_CAP)
            v.append(value(s, d.seat, cat, DEFAULT))
        diffs.append(v[1] - v[0])
    m = sum(diffs) / N
    se = math.sqrt(sum((x - m) ** 2 for x in diffs) / (N - 1) / N)
    tot.append(m)
    print(k, lead, "->", got, f"{m:+.2f} ± {se:.2f}", flush=True)
print("overrules", len(tot), "mean gain on fresh worlds", round(sum(tot) / max(1, len(tot)), 3))
