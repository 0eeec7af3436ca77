#!/usr/bin/env python3
"""How settled the search's choice is in `classic`: positions of one
engine's side in a record (what it was told, as `arena replay --as`
prints), searched again at several iteration budgets and seeds; prints how
often two searches choose the same action, and how far apart the values of
the two most visited root actions are.

Usage:
  tools/scripts/root-agreement.py RECORD.ljr --engine-name mcts \
    --luzhanqi target/release/luzhanqi --arena target/release/arena \
    --games 30 --every 5 --nodes 1500,9000,36000 --seeds 1,2 [--params WORDS]

Each search starts afresh (`newgame`, `Seed`, `go nodes N`); with
`ShowRootStats` the last report's root lines give each action's visits
and value. One line of JSON per position goes to --out when given."""
import argparse
import itertools
import json
import re
import statistics
import subprocess
import sys

from ljr import told

ROOT = re.compile(r"info rootstat (\S+) visits (\d+) score cp (-?\d+) wdl ")


def positions(arena, record, name, games, every):
    """(game, ply, position command) before every `every`-th move of `name`."""
    out = []
    for g in range(1, games + 1):
        for colour in ("red", "blue"):
            engine, fen, plies = told(arena, record, g, colour)
            if engine != name:
                continue
            tokens, own = [], 0
            for n, mover, words in plies:
                if mover == colour[0]:
                    own += 1
                    if own % every == 0:
                        moves = f" moves {' '.join(tokens)}" if tokens else ""
                        out.append((g, n, f"position fen {fen}{moves}"))
                tokens.extend(words)
    return out


class Engine:
    def __init__(self, path, params):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        for line in ["uli", "setoption name Variant value classic", "setoption name ShowRootStats value true"]:
            self.send(line)
        if params:
            self.send(f"setoption name SearchParams value {params}")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def search(self, pos, nodes, seed):
        """The chosen action and the root's (visits, action, cp) of the last report, most visited first."""
        for line in [f"setoption name Seed value {seed}", "newgame", pos, f"go nodes {nodes}"]:
            self.send(line)
        stats = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            if line.startswith("info depth"):
                stats = []
            elif m := ROOT.match(line):
                stats.append((int(m.group(2)), m.group(1), int(m.group(3))))
            elif line.startswith("bestmove"):
                return line.split()[1], sorted(stats, reverse=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("record")
    ap.add_argument("--engine-name", default="mcts")
    ap.add_argument("--luzhanqi", default="target/release/luzhanqi")
    ap.add_argument("--arena", default="target/release/arena")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--every", type=int, default=5)
    ap.add_argument("--nodes", default="1500,9000,36000")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--params", default="")
    ap.add_argument("--out")
    a = ap.parse_args()
    runs = [(int(n), int(s)) for n, s in itertools.product(a.nodes.split(","), a.seeds.split(","))]
    pos = positions(a.arena, a.record, a.engine_name, a.games, a.every)
    eng = Engine(a.luzhanqi, a.params)
    out = open(a.out, "w") if a.out else None
    rows = []
    for g, ply, p in pos:
        row = {f"{n}/{s}": eng.search(p, n, s) for n, s in runs}
        rows.append(row)
        if out:
            print(json.dumps([g, ply, row]), file=out, flush=True)
    print(f"{len(rows)} positions ({a.record}, {a.engine_name}, every {a.every}th move of games 1-{a.games})")
    print("same choice:")
    for x, y in itertools.combinations(rows[0].keys(), 2):
        same = sum(r[x][0] == r[y][0] for r in rows) / len(rows)
        differ = [(r[x][0], r[y][0]) for r in rows if r[x][0] != r[y][0]]
        attacks = [("x" in a) + ("x" in b) for a, b in differ]
        print(f"  {x:>12} and {y:<12} {same:6.1%}  (of the {len(differ)} others: both moves {attacks.count(0)}, "
              f"one attack {attacks.count(1)}, both attacks {attacks.count(2)})")
    print("the two most visited root actions (nodes/seed: median |cp1 - cp2|, share within 5 and 10 cp, median visit share of the first):")
    for key in rows[0]:
        tops = [r[key][1] for r in rows if len(r[key][1]) >= 2]
        gaps = [abs(t[0][2] - t[1][2]) for t in tops]
        share = [t[0][0] / sum(v for v, _, _ in t) for t in tops]
        print(f"  {key:>12}: {statistics.median(gaps):5.1f} cp, {sum(x <= 5 for x in gaps) / len(gaps):6.1%}, "
              f"{sum(x <= 10 for x in gaps) / len(gaps):6.1%}, {statistics.median(share):6.1%}  ({len(tops)} positions)")


if __name__ == "__main__":
    main()
