#!/usr/bin/env python3
"""Counts, in the arena's game records, an engine's moves that took longer
than a limit (the time from `go` to `bestmove` the records keep with
every ply): the figure "N of M moves over 100 ms" beside the README's
100 ms lines. Usage:

  tools/scripts/slow-moves.py ENGINE LIMIT_MS RECORD.ljr [RECORD.ljr ...]

Prints one line per record: the engine's moves, how many took more than
LIMIT_MS, and the longest (ms and game number, at most three, longest
last).
"""
import sys

import ljr


def slow_moves(text, engine, limit):
    """(moves, over, longest) of ENGINE in a record's TEXT: its plies,
    those over LIMIT ms, and the three longest as (ms, game) in rising
    order."""
    moves, over, times = 0, 0, []
    for tags, plies, _text in ljr.games(text):
        for letter, _token, ms in plies:
            if tags.get(ljr.PLAYER_TAG[letter]) != engine:
                continue
            moves += 1
            over += ms > limit
            times.append((ms, int(tags.get("Game", "0"))))
    return moves, over, sorted(times)[-3:]


def main(args):
    if len(args) < 3:
        sys.exit(__doc__)
    engine, limit = args[0], int(args[1])
    for path in args[2:]:
        with open(path) as f:
            moves, over, longest = slow_moves(f.read(), engine, limit)
        worst = ", ".join(f"{ms} ms (game {game})" for ms, game in longest)
        print(f"{path}: {engine} {moves} moves, {over} over {limit} ms; longest {worst or 'none'}")


if __name__ == "__main__":
    main(sys.argv[1:])
