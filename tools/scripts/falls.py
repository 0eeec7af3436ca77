#!/usr/bin/env python3
"""How an engine's flag and Marshal fall in classic records (issue 16).

Usage: tools/scripts/falls.py ENGINE RECORD.ljr [...]

Replays each game from its deployments (the records hold both true
deployments) and prints, for the games ENGINE lost:
- how many ended with its flag taken, and how the guard on the point in
  front of the flag (b2/d2 for Red, b11/d11 for Blue: on the back
  railway) fell: to a railway slide, to a step, or not at all (the flag
  was taken another way, or that point held no mine), and how many plies
  after its Marshal's fall (which shows the flag) the flag was taken;
- the kind of the piece that cleared that guard and of the one that took
  the flag;
and, over all its games, the bombs that hit its Marshal: by a railway
slide or a step, how often the bomb had moved before, what the Marshal
did on the ply before the hit (won an attack, moved, or neither), and how
many plies after the Marshal's first winning attack (the moment the enemy
can tell where a big piece stands) the hit came.
"""
import collections
import sys

from ljr import deployment, games, point, removed, walk

KIND_NAME = {"1": "Engineer", "2": "rank 2", "3": "rank 3", "4": "rank 4", "5": "rank 5", "6": "rank 6",
             "7": "rank 7", "8": "General", "9": "Marshal", "B": "bomb", "M": "mine", "F": "flag"}


# The camps (RULES.md): the only points with diagonal links.
CAMPS = {point(name) for name in ("b3", "d3", "c4", "b5", "d5", "b8", "d8", "c9", "b10", "d10")}


def is_step(a, b):
    """Whether a piece going from `a` to `b` could have taken one link: to
    an orthogonal neighbour, or diagonally into or out of a camp.
    Otherwise it slid along the railway (an Engineer's slide may turn)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dx + dy == 1 or (dx == dy == 1 and (a in CAMPS or b in CAMPS))


def quantiles(xs):
    xs = sorted(xs)
    if not xs:
        return "none"
    q = lambda f: xs[min(len(xs) - 1, int(f * len(xs)))]
    return f"quartiles {q(0.25)} / {q(0.5)} / {q(0.75)}"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    engine = sys.argv[1]
    losses, by_flag = 0, 0
    guard = collections.Counter()
    clearer = collections.Counter()
    taker = collections.Counter()
    hits, moved, since, after_fall = collections.Counter(), collections.Counter(), [], []
    before_hit = collections.Counter()
    for path in sys.argv[2:]:
        for tags, plies, _ in games(open(path).read()):
            me = "r" if tags.get("Red") == engine else "b" if tags.get("Blue") == engine else None
            if me is None:
                continue
            flag = next(p for p, k in deployment(tags["RedSetup" if me == "r" else "BlueSetup"], me).items()
                        if k == "F")
            front = (flag[0], flag[1] + (1 if me == "r" else -1))
            lost = tags["Result"] == ("0-1" if me == "r" else "1-0")
            cleared, cleared_by, first_win, last_taker, marshal_fell = None, None, None, None, None
            marshal_acted = None
            for n, colour, a, b, out, att, dfd in walk(tags, plies):
                if att is None:
                    break
                slide = not is_step(a, b)
                if colour == me and att.kind == "9" and out == "+" and first_win is None:
                    first_win = n
                if colour == me and att.kind == "9":
                    marshal_acted = (n, out)
                if colour != me and dfd is not None and dfd.colour == me:
                    if dfd.kind == "M" and b == front and out == "+" and cleared is None:
                        cleared = "a railway slide" if slide else "a step"
                        cleared_by = KIND_NAME[att.kind]
                    if dfd.kind == "F":
                        last_taker = att.kind
                    if dfd.kind == "9" and att.kind == "B":
                        hits["a railway slide" if slide else "a step"] += 1
                        moved[min(att.moves, 3)] += 1
                        if marshal_acted is None or marshal_acted[0] != n - 1:
                            before_hit["it stood still"] += 1
                        else:
                            before_hit["it won an attack" if marshal_acted[1] == "+" else "it moved"] += 1
                        if first_win is not None:
                            since.append(n - first_win)
                mine_fell = any(p is not None and (p.colour, p.kind) == (me, "9") for p, _ in removed(out, att, dfd))
                if marshal_fell is None and mine_fell:
                    marshal_fell = n
            if lost:
                losses += 1
                if tags.get("Termination") == "flag":
                    by_flag += 1
                    guard[cleared or "not cleared"] += 1
                    if cleared_by:
                        clearer[cleared_by] += 1
                    taker[KIND_NAME.get(last_taker, "?")] += 1
                    if marshal_fell is not None:
                        after_fall.append(len(plies) - marshal_fell)
    print(f"{engine}: {losses} losses, {by_flag} with its flag taken")
    print(f"  plies from its Marshal's fall to the flag's capture: {quantiles(after_fall)}"
          f" ({by_flag - len(after_fall)} with the Marshal alive)")
    print("  the mine in front of the flag fell to: " + ", ".join(f"{k} {v}" for k, v in guard.most_common()))
    print("  cleared by: " + ", ".join(f"{k} {v}" for k, v in clearer.most_common()))
    print("  the flag taken by: " + ", ".join(f"{k} {v}" for k, v in taker.most_common()))
    n = sum(hits.values())
    print(f"  bombs hit its Marshal in {n} games: " + ", ".join(f"{k} {v}" for k, v in hits.most_common()))
    print("  the bomb had moved before: " + ", ".join(
        f"{'3 or more' if k == 3 else k} times {v}" for k, v in sorted(moved.items())))
    print("  the ply before the hit: " + ", ".join(f"{k} {v}" for k, v in before_hit.most_common()))
    print(f"  plies after the Marshal's first winning attack: {quantiles(since)}"
          f" ({n - len(since)} hits before any)")


if __name__ == "__main__":
    main()
