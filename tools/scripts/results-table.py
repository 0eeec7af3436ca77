#!/usr/bin/env python3
"""Prints a Markdown table from the arena outputs in a results directory
(each <line>-<variant>.txt ends with the arena's JSON summary line and has a
matching .cmd file holding the command that produced it)."""
import json, pathlib, subprocess, sys

import ljr


def longest_moves(path, names, team_of=None):
    """The longest move time in ms of each engine (or team: `team_of` maps
    an engine's name to its team's) over a record file."""
    team_of = team_of or {}
    longest = {n: 0 for n in names}
    if not path.exists():
        return None
    for tags, plies, _ in ljr.games(path.read_text()):
        for letter, _, ms in plies:
            name = tags[ljr.PLAYER_TAG[letter]]
            name = team_of.get(name, name)
            if name in longest:
                longest[name] = max(longest[name], ms)
    return [longest[n] for n in names]


def teams(j):
    """The two sides of a summary: its engines, or in a four-player match
    its teams, with each engine's team (four engines: two a team)."""
    sides = j.get("teams", j["engines"])
    engines = j["engines"]
    team_of = {e: sides[i // 2] for i, e in enumerate(engines)} if len(engines) == 4 else {}
    return sides, team_of


def limits(words):
    """The time control of a line from its arena command: the global limit,
    or each engine's own (`tc=`, `movetime=`, `nodes=` in its --engine)."""
    keys = ("tc", "movetime", "nodes")

    def show(key, value):
        return {"tc": f"clock {value}", "movetime": f"{value} ms/move"}.get(key, f"{value} iterations/move")

    common = None
    for key in keys:
        if f"--{key}" in words:
            common = show(key, words[words.index(f"--{key}") + 1])
    own = []
    for i, w in enumerate(words):
        if w == "--engine":
            mine = common
            for x in words[i + 1:]:
                if x.startswith("--"):
                    break
                key, _, value = x.partition("=")
                if key in keys:
                    mine = show(key, value)
            own.append(mine)
    if len(own) == 2 and own[0] != own[1]:
        if own[0].endswith(" ms/move") and own[1].endswith(" ms/move"):
            return f"{own[0].split()[0]} vs {own[1]}"
        return f"{own[0]} vs {own[1]}"
    return own[0] if own and own[0] else "?"


out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "results/search")
stamp = out / "bin" / "COMMIT"
commit = stamp.read_text().strip() if stamp.exists() else subprocess.run(
    ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
print("| variant | opponent | limits | games | W-D-L | score (95%) | Elo (95%) | time losses | longest move (ms) | adjudicated |")
print("|---|---|---|---|---|---|---|---|---|---|")
for txt in sorted(out.glob("*.txt")):
    lines = [l for l in txt.read_text().splitlines() if l.startswith("{")]
    if not lines:
        continue
    j = json.loads(lines[-1])
    cmd = (txt.with_suffix(".cmd")).read_text().strip() if txt.with_suffix(".cmd").exists() else ""
    tc = limits(cmd.split())
    terms = j.get("terminations", {})
    time_losses = sum(terms.get("time", [0, 0, 0])[:2])
    resigned = sum(terms.get("resign", [0, 0, 0])[:2])
    lo = "-inf" if j["elo_lo"] is None else f'{j["elo_lo"]:+.0f}'
    hi = "+inf" if j["elo_hi"] is None else f'{j["elo_hi"]:+.0f}'
    if j["elo"] is None:
        elo = "+inf" if j["score"] >= 0.5 else "-inf"
    else:
        elo = f'{j["elo"]:+.0f} [{lo}, {hi}]'
    sides, team_of = teams(j)
    longest = longest_moves(txt.with_suffix(".ljr"), sides, team_of)
    longest = "?" if longest is None else " / ".join(map(str, longest))
    print(f'| {j["variant"]} | {sides[1]} | {tc} | {j["games"]} | {j["wins"]}-{j["draws"]}-{j["losses"]} | '
          f'{100*j["score"]:.1f}% ({100*j["score_lo"]:.1f}..{100*j["score_hi"]:.1f}) | {elo} | '
          f'{time_losses} | {longest} | {resigned} |')
print(f"\nBinaries of commit {commit}; commands in {out}/*.cmd.")
