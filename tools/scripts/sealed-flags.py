#!/usr/bin/env python3
"""Counts, in records of `classic`, `open` or `ccgc` games, how many of
each game's two flags were sealed by their deployments (every point next to
the flag's headquarters a landmine of its own side: the two back-rank
neighbours, or one at the board's edge, and the point in front), and how
those games ended. Usage:

  tools/scripts/sealed-flags.py RECORD.ljr [RECORD.ljr ...]

Prints one line per record and number of sealed flags (0, 1 or 2): games,
Red wins, Blue wins, draws.
"""
import re
import sys

import ljr

TOKEN = re.compile(r"[rb][0-9BMF]|\d")
RESULTS = ["1-0", "0-1", "1/2-1/2"]


def ranks(deployment):
    """The six ranks of a deployment string (protocol.md, "Deployment
    string"), each a list of five kind letters or '.' for an empty point,
    in the string's order (Red: rank 6 down to 1; Blue: 12 down to 7)."""
    out = []
    for rank in deployment.split("/"):
        points = []
        for token in TOKEN.findall(rank):
            if token[0] in "rb":
                points.append(token[1])
            else:
                points.extend("." * int(token))
        out.append(points)
    return out


def sealed(deployment, red):
    """Whether every neighbour of the flag in DEPLOYMENT is a landmine
    (false for a malformed string: records keep illegal deployments as
    sent)."""
    rows = ranks(deployment)
    if len(rows) != 6 or any(len(rank) != 5 for rank in rows):
        return False
    back, front = (rows[5], rows[4]) if red else (rows[0], rows[1])
    if "F" not in back:
        return False
    file = back.index("F")
    around = [front[file]] + [back[f] for f in (file - 1, file + 1) if 0 <= f < 5]
    return all(kind == "M" for kind in around)


def main(paths):
    if not paths:
        sys.exit(__doc__)
    print("record | sealed flags | games | red wins | blue wins | draws")
    for path in paths:
        with open(path) as f:
            text = f.read()
        counts = {}
        for tags, _plies, _text in ljr.games(text):
            if "RedSetup" not in tags or "BlueSetup" not in tags or tags.get("Result") not in RESULTS:
                continue
            n = sealed(tags["RedSetup"], True) + sealed(tags["BlueSetup"], False)
            row = counts.setdefault(n, [0, 0, 0, 0])
            row[0] += 1
            row[1 + RESULTS.index(tags["Result"])] += 1
        for n in sorted(counts):
            print(path, "|", n, "|", " | ".join(map(str, counts[n])))


if __name__ == "__main__":
    main(sys.argv[1:])
