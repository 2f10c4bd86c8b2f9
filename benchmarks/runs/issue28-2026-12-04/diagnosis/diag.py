import json, sys, collections
from engine import GameState, pending
from engine.ai import search as S, decide
from engine.ai.lookahead import ranked, NormalConfig
from engine.hidden import observe, mix
from engine.ai import LEVELS
res = json.load(open(sys.argv[2]))
lines = open(sys.argv[1]).read().splitlines()
for k, (line, o) in enumerate(zip(lines, res)):
    if tuple(o) != ("end",):
        continue
    r = json.loads(line); st = GameState.from_json(r["state"]); d = pending(st)
    seed = mix(st.seed, d.id, d.seat, LEVELS.index("strong"))
    obs = observe(st, d.seat)
    first = ranked(obs, d.kind, d.options, seed, NormalConfig(samples=6))
    print(k, "deck", r["deck"], "acts", st.actions_taken, "normal:", decide(st, d, "normal"))
    print("   one-ply:", [(round(v, 2), d.options[i]) for v, i in first[:6]])
