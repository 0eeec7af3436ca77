#!/usr/bin/env python3
"""The moments an engine's Marshal won an attack and was hit by a bomb on
the very next ply, from the arena's classic records (issue 16): how often
that happens per winning Marshal attack, what the engine believed of the
bomber when it chose the attack, and what a new search of that moment
thinks of it.

For each moment the engine's view before its attack (what the referee
told it, `arena replay --as`) is searched again, `go nodes NODES` with
`ShowBelief` and `ShowRootStats` and seed 5: the bomber's probability of
being a bomb in the belief, the share of the root's visits and the score
of the attack that was played, and the search's three most visited
actions. The summary gives the mean and median of those figures.

Usage: tools/scripts/bomb-moments.py ENGINE RECORD.ljr [LIMIT]
  ENGINE   the engine's name in the records (the Red/Blue tags)
  LIMIT    search at most this many moments (default: all)
Environment: LUZHANQI and ARENA (default target/release/luzhanqi and
target/release/arena), NODES (default 10000), PARAMS (the engine's
SearchParams, default empty).
"""
import os
import re
import statistics
import subprocess
import sys

from ljr import games, point_name, told, walk

ENGINE = os.environ.get("LUZHANQI", "target/release/luzhanqi")
ARENA = os.environ.get("ARENA", "target/release/arena")
NODES = os.environ.get("NODES", "10000")
PARAMS = os.environ.get("PARAMS", "")


def moments(tags, plies, me):
    """The plies n at which `me`'s Marshal won an attack (from, to), each
    with the point of the bomb that hit it at ply n + 1 (or None); points
    by name."""
    steps = list(walk(tags, plies))
    out = []
    for i, (n, _, a, b, outcome, att, _) in enumerate(steps):
        if att is not None and (att.colour, att.kind) == (me, "9") and outcome == "+":
            nxt = steps[i + 1] if i + 1 < len(steps) and steps[i + 1][0] == n + 1 else None
            hit = nxt and nxt[3] == b and nxt[4] == "=" and nxt[5] is not None and nxt[5].kind == "B"
            out.append((n, point_name(a), point_name(b), point_name(nxt[2]) if hit else None))
    return out


def search(record, game, colour, ply, bomber, played):
    """The belief in `bomber` being a bomb, the played action's share of
    the root's visits and its score, and the three most visited actions,
    when the view before `ply` is searched again."""
    _, fen, plies = told(ARENA, record, game, colour)
    moves = [t for i, _, tokens in plies if i < ply for t in tokens]
    commands = ["setoption name Variant value classic", "setoption name ShowBelief value true",
                "setoption name ShowRootStats value true", "setoption name Seed value 5",
                f"setoption name SearchParams value {PARAMS}",
                f"position fen {fen} moves {' '.join(moves)}", f"go nodes {NODES}", "isready"]
    out = subprocess.run([ENGINE], input="\n".join(commands) + "\n", capture_output=True, text=True,
                         timeout=120).stdout
    belief = re.search(rf"^info belief {bomber} (.*)$", out, re.M)
    p_bomb = 0.0
    for kv in belief.group(1).split() if belief else []:
        kind, p = kv.split(":")
        p_bomb = float(p) if kind == "B" else p_bomb
    stats = {}
    for action, visits, cp in re.findall(r"^info rootstat (\S+) visits (\d+) score cp (-?\d+)", out, re.M):
        stats[action] = (int(visits), int(cp))  # the last report's
    total = sum(v for v, _ in stats.values()) or 1
    visits, cp = stats.get(played, (0, 0))
    top = sorted(stats.items(), key=lambda s: -s[1][0])[:3]
    return p_bomb, visits / total, cp, [(a, round(v / total, 2), c) for a, (v, c) in top]


def main(engine, record, limit):
    with open(record, encoding="utf-8") as f:
        text = f.read()
    wins, hits = 0, []
    for tags, plies, _ in games(text):
        if tags.get("Variant") not in ("classic", "ccgc") or engine not in (tags.get("Red"), tags.get("Blue")):
            continue
        me = "r" if tags["Red"] == engine else "b"
        for ply, a, b, bomber in moments(tags, plies, me):
            wins += 1
            if bomber:
                hits.append((int(tags["Game"]), "red" if me == "r" else "blue", ply, f"{a}x{b}", bomber, tags["Result"]))
    print(f"{engine}: {wins} winning Marshal attacks, {len(hits)} hit by a bomb on the next ply"
          f" ({100 * len(hits) / max(wins, 1):.1f}%)")
    figures = []
    for game, colour, ply, played, bomber, result in hits[:limit]:
        p_bomb, share, cp, top = search(record, game, colour, ply, bomber, played)
        figures.append((p_bomb, share, cp))
        print(f"game {game} ply {ply} ({result}) {played}, bomb from {bomber}: belief {p_bomb:.2f} a bomb;"
              f" {played} {share:.2f} of the visits, {cp} cp; most visited {top}")
    if figures:
        p, s, c = zip(*figures)
        print(f"{len(figures)} moments searched again ({NODES} iterations): the bomber a bomb with mean probability"
              f" {statistics.mean(p):.3f} (median {statistics.median(p):.2f}); the attack played had half"
              f" the visits or more in {sum(x >= 0.5 for x in s)}; its score median {statistics.median(c)} cp")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10**9)
