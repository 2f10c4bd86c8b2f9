import json
import sys
from pathlib import Path

from engine import GameState, pending
from engine.ai import LEVELS, decide
from engine.ai.lookahead import NormalConfig, ranked
from engine.hidden import mix, observe

res = json.loads(Path(sys.argv[2]).read_text())
lines = Path(sys.argv[1]).read_text().splitlines()
for k, (line, o) in enumerate(zip(lines, res, strict=False)):
    if tuple(o) != ("end",):
        continue
    r = json.loads(line)
    st = GameState.from_json(r["state"])
    d = pending(st)
    seed = mix(st.seed, d.id, d.seat, LEVELS.index("strong"))
    obs = observe(st, d.seat)
    first = ranked(obs, d.kind, d.options, seed, NormalConfig(samples=6))
    print(k, "deck", r["deck"], "acts", st.actions_taken, "normal:", decide(st, d, "normal"))
    print("   one-ply:", [(round(v, 2), d.options[i]) for v, i in first[:6]])
