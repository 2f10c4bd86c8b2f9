"""Ask strong (a config) at each saved position; count END answers."""
import json, sys, time, dataclasses, collections
from engine import GameState, pending
from engine.ai import search as S
from engine.ai import decide
cfg = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
S.STRONG = dataclasses.replace(S.STRONG, **cfg)
ends = 0; n = 0; verbs = collections.Counter(); t0 = time.process_time()
res = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    st = GameState.from_json(r["state"])
    d = pending(st)
    o = decide(st, d, "strong")
    n += 1; ends += o == ("end",); verbs[o[0]] += 1
    res.append(list(o))
print(json.dumps({"cfg": cfg, "n": n, "ends": ends, "verbs": verbs, "cpu_s": round(time.process_time() - t0, 1)}))
json.dump(res, open(sys.argv[3], "w")) if len(sys.argv) > 3 else None
