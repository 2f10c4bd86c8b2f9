"""Where strong's answer differs from the one-ply leader, is it better on fresh worlds?"""
import json, sys, math, dataclasses
from engine import GameState, pending
from engine.ai import LEVELS, search as S
from engine.ai.lookahead import ranked, NormalConfig
from engine.ai.evaluate import value, DEFAULT
from engine.ai.playout import play_until_turn_of, ENDGAME_CAP
from engine.api import playout_step
from engine.cards import catalog_for
from engine.hidden import observe, mix, copy_state
N = int(sys.argv[2]); cfg = json.loads(sys.argv[3])
conf = dataclasses.replace(S.STRONG, **cfg)
tot = []; 
for k, line in enumerate(open(sys.argv[1])):
    st = GameState.from_json(json.loads(line)["state"]); d = pending(st)
    seed = mix(st.seed, d.id, d.seat, LEVELS.index("strong"))
    obs = observe(st, d.seat); cat = catalog_for(st.rules)
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
            s = copy_state(world); ask = playout_step(s, c)
            play_until_turn_of(s, ask, -1, ENDGAME_CAP)
            v.append(value(s, d.seat, cat, DEFAULT))
        diffs.append(v[1] - v[0])
    m = sum(diffs) / N; se = math.sqrt(sum((x - m) ** 2 for x in diffs) / (N - 1) / N)
    tot.append(m)
    print(k, lead, "->", got, f"{m:+.2f} ± {se:.2f}", flush=True)
print("overrules", len(tot), "mean gain on fresh worlds", round(sum(tot) / max(1, len(tot)), 3))
