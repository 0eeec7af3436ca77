#!/usr/bin/env python3
"""Replays one side of a recorded game through an engine and times each of
its moves as the arena would (from sending `go` to reading `bestmove`), the
engine keeping its tree from move to move (`flip` and `open` records, where
both sides are told the same history). Usage:

  tools/scripts/move-times.py ENGINE RECORD.ljr GAME SIDE MOVETIME [Name=Value ...]

GAME is the record's game number or a range of them (30-39), SIDE `red` or
`blue`, MOVETIME in ms; the rest are engine options (MoveOverhead is 10
unless given). The engine gets the recorded history before each of SIDE's
moves, whatever it answered. Prints the number of moves, the median, the
five longest and the moves over MOVETIME (game:ply). Needs
target/release/arena (for the position the side was told).
"""
import subprocess
import sys
import tempfile
import time

import ljr


def side_times(engine, game, side, movetime, options):
    """The times of SIDE's moves in GAME (tags, plies, text from
    `ljr.games`), as (ply, ms)."""
    tags, plies, text = game
    with tempfile.NamedTemporaryFile("w", suffix=".ljr") as one:
        one.write(text)
        one.flush()
        told = subprocess.run(["target/release/arena", "replay", "--as", side, one.name],
                              capture_output=True, text=True, check=True).stdout
    start = next(l for l in told.splitlines() if l.startswith("position "))
    moves = [(colour, token) for colour, token, _ in plies]
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("the engine closed its output")
            if line.startswith(prefix):
                return line

    send("uli")
    until("uliok")
    send(f"setoption name Variant value {tags['Variant']}")
    for name, value in options.items():
        send(f"setoption name {name} value {value}")
    send("newgame")
    send("isready")
    until("readyok")
    times = []
    for i, (who, _) in enumerate(moves):
        if who != side[0]:
            continue
        history = " ".join(m for _, m in moves[:i])
        send(start + (f" moves {history}" if history else ""))
        t = time.perf_counter()
        send(f"go movetime {movetime}")
        until("bestmove")
        times.append((i + 1, round((time.perf_counter() - t) * 1000)))
    send("quit")
    p.wait()
    return times


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    engine, record, games, side, movetime = sys.argv[1:6]
    movetime = int(movetime)
    options = dict(a.split("=", 1) for a in sys.argv[6:])
    options.setdefault("MoveOverhead", "10")
    first, _, last = games.partition("-")
    recorded = {g[0].get("Game"): g for g in ljr.games(open(record).read())}
    times = []
    for game in range(int(first), int(last or first) + 1):
        if str(game) not in recorded:
            sys.exit(f"no game {game} in {record}")
        times += [(f"{game}:{ply}", ms) for ply, ms in side_times(engine, recorded[str(game)], side, movetime, options)]
    ms = sorted(t for _, t in times)
    over = [f"{at} {t}" for at, t in times if t > movetime]
    print(f"moves {len(ms)} median {ms[len(ms) // 2]} ms longest {ms[-5:]} over {movetime} ms: {len(over)} {over}")


if __name__ == "__main__":
    main()
