#!/usr/bin/env python3
"""How each engine's Marshal falls and its flag is shown, from the arena's
classic records (issue 16). Replays every game from its true deployments
(the records' RedSetup/BlueSetup tags) and the referee's outcomes, and
counts per engine: games, results, the Marshal's fall (how often, the
median ply, and how: attacking the enemy Marshal, attacking a bomb, hit
by a bomb, attacking a landmine, taken by the enemy Marshal, with that
engine's score in the games it fell so, and in those where it lived), the flag
shown (and in how many of that engine's losses), its results by which
flags were shown (none, only its own, only the enemy's, both with its own
first, both with the enemy's first), the plies of wins and losses; and
for the Marshals hit by a bomb, how many combats each had won before (the
moment the enemy can tell where a big piece stands) and the highest rank
it had beaten.

Usage: tools/scripts/marshal-flag.py RECORD.ljr [RECORD.ljr ...]
"""
import re
import statistics
import sys
from collections import Counter, defaultdict

from ljr import games, removed, result_letter, walk

RANKS = "123456789"


def replay(tags, plies):
    """For each colour whose Marshal fell: the ply, how, and the combats it
    had won before as (count, the highest rank beaten or None)."""
    fell = {}
    wins = {"r": [], "b": []}
    for n, _, _, _, outcome, att, dfd in walk(tags, plies):
        for lost, other in removed(outcome, att, dfd):
            # A Marshal that removed a ranked piece and stayed won a combat.
            if outcome != "=" and other and other.kind == "9" and other.colour not in fell and lost and lost.kind in RANKS:
                wins[other.colour].append(lost.kind)
            if lost and lost.kind == "9" and lost.colour not in fell:
                attacker = lost is att
                k = other.kind if other else "?"
                if k == "9":
                    how = "traded with the Marshal" if attacker else "attacked by the Marshal"
                elif k == "B":
                    how = "attacked a bomb" if attacker else "hit by a bomb"
                elif k == "M":
                    how = "attacked a landmine"
                else:
                    how = f"lost to {k}"
                w = wins[lost.colour]
                fell[lost.colour] = (n, how, (len(w), max(w, key=RANKS.index) if w else None))
    return fell


def wdl(results, key):
    """Wins, draws and losses counted under `key` in a Counter of
    (key, "W" | "D" | "L")."""
    return tuple(results[(key, r)] for r in "WDL")


def score(w, d, lo):
    """The score in percent of w-d-lo."""
    return 100 * (w + d / 2) / (w + d + lo)


def main(paths):
    per = defaultdict(lambda: Counter())
    fall_plies = defaultdict(list)
    lengths = defaultdict(lambda: defaultdict(list))
    hows = defaultdict(Counter)
    by_flags = defaultdict(Counter)
    by_how = defaultdict(Counter)
    bombed_wins = defaultdict(Counter)
    bombed_top = defaultdict(Counter)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for tags, plies, game in games(text):
            if tags.get("Variant") not in ("classic", "ccgc") or "RedSetup" not in tags:
                continue
            fell = replay(tags, plies)
            shown = {c: f"={c}F" in game for c in "rb"}
            reveals = re.findall(r"=([rb])F\b", game)
            result = tags.get("Result", "*")
            for c, name_tag in (("r", "Red"), ("b", "Blue")):
                name = tags[name_tag]
                s = per[name]
                s["games"] += 1
                letter = result_letter(tags, c)
                won, lost = letter == "W", letter == "L"
                s["wins"] += won
                s["losses"] += lost
                s["draws"] += result == "1/2-1/2"
                lengths[name]["win" if won else "loss" if lost else "draw"].append(len(plies))
                by_how[name][(fell[c][1] if c in fell else "survived", letter)] += 1
                if c in fell and fell[c][1] == "hit by a bomb":
                    count, top = fell[c][2]
                    bombed_wins[name][min(count, 3)] += 1
                    bombed_top[name][top or "none"] += 1
                if c in fell:
                    s["marshal fell"] += 1
                    fall_plies[name].append(fell[c][0])
                    hows[name][fell[c][1]] += 1
                other = "b" if c == "r" else "r"
                if not reveals:
                    flags = "no flag shown"
                elif set(reveals) == {c}:
                    flags = "only its flag shown"
                elif set(reveals) == {other}:
                    flags = "only the enemy's flag shown"
                else:
                    flags = "both shown, its own first" if reveals[0] == c else "both shown, the enemy's first"
                by_flags[name][(flags, letter)] += 1
                if shown[c]:
                    s["flag shown"] += 1
                    s["flag shown, lost"] += lost
    for name, s in per.items():
        g = s["games"]
        print(f"{name}: {g} games, {s['wins']}-{s['draws']}-{s['losses']}")
        median = statistics.median(fall_plies[name]) if fall_plies[name] else "-"
        print(f"  Marshal fell in {s['marshal fell']} ({100 * s['marshal fell'] / g:.0f}%), median ply {median}")
        for how, n in hows[name].most_common():
            print(f"    {how}: {n}, scoring {score(*wdl(by_how[name], how)):.0f}%")
        if bombed_wins[name]:
            counts = ", ".join(f"{k if k < 3 else '3 or more'}: {bombed_wins[name][k]}" for k in range(4))
            print(f"    hit by a bomb after winning combats: {counts}")
            tops = ", ".join(f"{k}: {bombed_top[name][k]}" for k in ["none", *RANKS[:-1]] if bombed_top[name][k])
            print(f"    the highest rank it had beaten then: {tops}")
        alive = wdl(by_how[name], "survived")
        if sum(alive):
            print(f"  Marshal alive at the end: {sum(alive)}, scoring {score(*alive):.0f}%")
        print(f"  flag shown in {s['flag shown']} ({100 * s['flag shown'] / g:.0f}%); in {s['flag shown, lost']} of its {s['losses']} losses")
        for flags in ("no flag shown", "only its flag shown", "only the enemy's flag shown",
                      "both shown, its own first", "both shown, the enemy's first"):
            w, d, lo = wdl(by_flags[name], flags)
            if w + d + lo:
                print(f"  {flags}: {w}-{d}-{lo} ({score(w, d, lo):.0f}%)")
        for k in ("win", "loss", "draw"):
            v = lengths[name][k]
            if v:
                print(f"  {k}{'es' if k == 'loss' else 's'} last {statistics.mean(v):.0f} plies on average")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
