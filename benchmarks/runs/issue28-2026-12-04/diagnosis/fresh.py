import json
import math
import sys
from pathlib import Path

from engine import GameState, pending
from engine.ai import LEVELS
from engine.ai.evaluate import DEFAULT, value
from engine.ai.lookahead import NormalConfig, ranked
from engine.ai.playout import ENDGAME_CAP, play_until_turn_of
from engine.api import playout_step
from engine.cards import catalog_for
from engine.hidden import copy_state, mix, observe

N = int(sys.argv[3])
res = json.loads(Path(sys.argv[2]).read_text())
lines = Path(sys.argv[1]).read_text().splitlines()
for k, (line, o) in enumerate(zip(lines, res, strict=False)):
    if tuple(o) != ("end",):
        continue
    st = GameState.from_json(json.loads(line)["state"])
    d = pending(st)
    seed = mix(st.seed, d.id, d.seat, LEVELS.index("strong"))
    obs = observe(st, d.seat)
    cat = catalog_for(st.rules)
    first = ranked(obs, d.kind, d.options, seed, NormalConfig(samples=6))
    cands = [d.options[first[0][1]], ("end",)]
    lay = next((d.options[i] for _, i in first if d.options[i][0] == "lay"), None)
    if lay and lay not in cands:
        cands.append(lay)
    vals = {c: [] for c in cands}
    for w in range(N):
        world = obs.world(seed + 777777 + w)
        for c in cands:
            s = copy_state(world)
            ask = playout_step(s, c)
            play_until_turn_of(s, ask, -1, ENDGAME_CAP)
            vals[c].append(value(s, d.seat, cat, DEFAULT))
    base = vals[cands[0]]
    out = []
    for c in cands[1:]:
        diffs = [a - b for a, b in zip(vals[c], base, strict=False)]
        m = sum(diffs) / N
        se = math.sqrt(sum((x - m) ** 2 for x in diffs) / (N - 1) / N)
        out.append(f"{c[0]} - {cands[0][0]}: {m:+.2f} ± {se:.2f}")
    print(k, "; ".join(out), flush=True)
