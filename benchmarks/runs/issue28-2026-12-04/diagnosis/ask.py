"""Ask strong (a config) at each saved position; count END answers."""

import collections
import dataclasses
import json
import sys
import time
from pathlib import Path

from engine import GameState, pending
from engine.ai import decide
from engine.ai import search as S

cfg = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
S.STRONG = dataclasses.replace(S.STRONG, **cfg)
ends = 0
n = 0
verbs = collections.Counter()
t0 = time.process_time()
res = []
for line in Path(sys.argv[1]).read_text().splitlines():
    r = json.loads(line)
    st = GameState.from_json(r["state"])
    d = pending(st)
    o = decide(st, d, "strong")
    n += 1
    ends += o == ("end",)
    verbs[o[0]] += 1
    res.append(list(o))
print(
    json.dumps(
        {
            "cfg": cfg,
            "n": n,
            "ends": ends,
            "verbs": verbs,
            "cpu_s": round(time.process_time() - t0, 1),
        }
    )
)
if len(sys.argv) > 3:
    Path(sys.argv[3]).write_text(json.dumps(res))
