#!/usr/bin/env python3
"""An engine's score by what its own deployment was, from the arena's
classic records (issue 16): the deployments are drawn before the game, so
each line compares games that differ in how that side deployed.

Usage: tools/scripts/deployment-scores.py ENGINE RECORD.ljr [...]

For the games ENGINE played with a deployment tag (RedSetup/BlueSetup),
prints its W-D-L and score grouped by:
- the Marshal's row, counted from its own back rank (1) to its front (6);
- whether the Marshal started on the railway (RULES.md: its side's second
  and sixth rows, and the a- and e-files between them);
- the Marshal's file;
- how many landmines stood on the points next to its flag (three: sealed);
- the General's row.
Each group's lines add up to the engine's games.
"""
import sys
from collections import Counter, defaultdict

from ljr import FILES, deployment, games, result_letter


def own_row(p, colour):
    """The row of point p counted from `colour`'s back rank, from 1."""
    return p[1] + 1 if colour == "r" else 12 - p[1]


def on_railway(p, colour):
    """Whether p is a railway point of `colour`'s half."""
    row = own_row(p, colour)
    return row in (2, 6) or (p[0] in (0, 4) and 2 <= row <= 6)


def features(d, colour):
    """The grouped features of deployment d (point -> kind letter)."""
    at = {k: p for p, k in d.items() if k in "98F"}
    flag = at["F"]
    sealed = sum(1 for p, k in d.items() if k == "M" and abs(p[0] - flag[0]) + abs(p[1] - flag[1]) == 1)
    m = at["9"]
    return [
        ("the Marshal's row", own_row(m, colour)),
        ("the Marshal on the railway", "yes" if on_railway(m, colour) else "no"),
        ("the Marshal's file", FILES[m[0]]),
        ("landmines next to the flag", sealed),
        ("the General's row", own_row(at["8"], colour)),
    ]


def main(engine, paths):
    results = defaultdict(Counter)
    played = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for tags, _, _ in games(text):
            for colour, name_tag, setup_tag in (("r", "Red", "RedSetup"), ("b", "Blue", "BlueSetup")):
                if tags.get(name_tag) != engine or setup_tag not in tags:
                    continue
                played += 1
                letter = result_letter(tags, colour)
                for group, value in features(deployment(tags[setup_tag], colour), colour):
                    results[group][(value, letter)] += 1
    print(f"{engine}: {played} games")
    for group, counts in results.items():
        print(f"  {group}:")
        for value in sorted({v for v, _ in counts}, key=str):
            w, d, lo = (counts[(value, r)] for r in "WDL")
            print(f"    {value}: {w}-{d}-{lo}, {w + d + lo} games, {100 * (w + d / 2) / (w + d + lo):.1f}%")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
