#!/usr/bin/env python3
"""How well start-cell counts explain a set of deployments (issue 16): the
mean log-probability per piece of each piece's kind given its start cell,
P(kind | cell) as the engine's soft evidence forms it (src/belief/evidence.rs:
the counts with one pseudo-count spread as the army's shares, trusted for
the share TRUST of deployments, raised to the exponent GAMMA against the
kinds' prior), normalised over the kinds the deployment rules allow on the
cell, minus the same for the prior alone (positive: the counts explain the
deployments better than the prior does).

The deployments: the `B starts from: position fen` lines of a referee log
such as shared/evidence/classic-losses.txt (--side B; the named pieces of
each position), or the RedSetup/BlueSetup tags of arena records (.ljr).

Usage:
  tools/scripts/deployment-likelihood.py --table src/belief/evidence_table.rs \
    [--gamma 1 --trust 0.9] [--side B] FILE...
"""
import argparse
import math
import re

from ljr import deployment, games

ARMY = [3, 3, 3, 2, 2, 2, 2, 1, 1, 2, 3, 1]  # Kind order: 1-9, bomb, mine, flag
LETTERS = "123456789BMF"


def table(path):
    """The START counts of an evidence table (Rust source): 18 cells by 12 kinds."""
    text = open(path, encoding="utf-8").read()
    text = text[text.index("pub const START"):text.index("pub const BEHAVIOUR")]
    return [list(map(int, row.split(","))) for row in re.findall(r"\[([\d, ]+)\],", text)]


def cell(file, rank, red):
    """The folded start cell of a piece of Red (`red`) or Blue on (file, rank)."""
    depth = rank if red else 11 - rank
    return min(depth, 5) * 3 + min(file, 4 - file)


def allowed(c, k):
    """Whether the deployment rules allow kind index `k` on cell `c`."""
    depth = c // 3
    if k == 11:
        return c == 1  # the flag on a headquarters
    if k == 10:
        return depth <= 1  # mines on the last two ranks
    if k == 9:
        return depth != 5  # no bomb in the front rank
    return True


def named(text, colour):
    """(colour, file, rank, kind index) of the pieces a deployment string
    names (`?`, a piece not named, left out)."""
    return [(colour, f, r, LETTERS.index(k)) for (f, r), k in deployment(text, colour).items() if k != "?"]


def from_log(path, side):
    """The named pieces of each `side starts from` position: its top six
    ranks are Blue's half, the bottom six Red's."""
    out = []
    for m in re.finditer(side + r" starts from: position fen (\S+)", open(path, encoding="utf-8").read()):
        ranks = m.group(1).split("/")
        out += named("/".join(ranks[:6]), "b") + named("/".join(ranks[6:]), "r")
    return out


def from_record(path):
    """The pieces of both deployments of every game of a record."""
    out = []
    for tags, _, _ in games(open(path, encoding="utf-8").read()):
        out += named(tags["RedSetup"], "r") + named(tags["BlueSetup"], "b")
    return out


def mean_log_p(pieces, counts, gamma, trust):
    total = sum(ARMY)
    prior = [a / total for a in ARMY]
    s = 0.0
    for colour, f, r, k in pieces:
        c = cell(f, r, colour == "r")
        w = []
        for kk in range(12):
            if not allowed(c, kk):
                w.append(0.0)
            elif counts is None:
                w.append(prior[kk])
            else:
                p = (counts[c][kk] + prior[kk]) / (sum(counts[c]) + 1)
                p = trust * p + (1 - trust) * prior[kk]
                w.append(prior[kk] * (p / prior[kk]) ** gamma)
        s += math.log(w[k] / sum(w))
    return s / len(pieces)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--table", default="src/belief/evidence_table.rs")
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--trust", type=float, default=0.9)
    ap.add_argument("--side", default="B")
    a = ap.parse_args()
    pieces = [p for f in a.files for p in (from_record(f) if f.endswith(".ljr") else from_log(f, a.side))]
    prior = mean_log_p(pieces, None, 0, 1)
    model = mean_log_p(pieces, table(a.table), a.gamma, a.trust)
    print(f"{len(pieces)} pieces: prior {prior:.3f}, counts {model:.3f} nats a piece; "
          f"the counts {model - prior:+.3f} nats a piece (gamma {a.gamma}, trust {a.trust})")


if __name__ == "__main__":
    main()
