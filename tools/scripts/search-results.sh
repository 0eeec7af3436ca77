#!/usr/bin/env bash
# Regenerates the search results table of the README: the mcts player against
# random, greedy, flat Monte Carlo and itself with a quarter of the time, in
# flip and open, with the arena. Usage:
#   tools/scripts/search-results.sh [OUTDIR]        (GAMES=400 by default)
# Writes OUTDIR/<line>.txt (the arena's summary and JSON line), OUTDIR/<line>.ljr
# (the game records) and prints the Markdown table. Takes hours on 2 cores.
# Interrupted? Run it again: the arena resumes each line from the pairs its
# record file already holds (--resume). KEEP_BIN=1 reuses OUTDIR/bin instead
# of building and copying the current tree (so that a resumed line keeps its
# binaries). The classic lines (issue 6): VARIANTS=classic
# LINES="random greedy uniform setup" (uniform: the opponent is the same
# search with BeliefModel=uniform; setup: with SetupStyle=random).
# LINES=threads CONCURRENCY=1: two threads against one at 100 ms a move
# (on an otherwise idle 2-core machine). LINES=clock GAMES=200: mcts on a
# clock of 10 s + 100 ms a move (its own time management) against mcts at a
# fixed 200 ms a move. LINES=expert: against Player expert at 100 ms a move
# (issue 16), in any variant.
# Four players (issue 19): VARIANTS=siguo (or siguo-open) LINES="random greedy
# quarter": each engine is a team and plays both seats of its team (one process
# a seat), 400 games, the teams swapping seats within each pair of games; the
# table's score is the mcts team's. quarter: mcts at 100 ms a move against
# itself at 25 ms (the issue's "100 ms a move ... against itself at a quarter
# of the time"; self is 400 against 100 ms as in the two-player tables). The
# lines take hours each (a game is some hundreds of plies); KEEP_BIN=1 and a
# rerun resume them.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-results/search}
GAMES=${GAMES:-400}
VARIANTS=${VARIANTS:-"flip open"}
LINES=${LINES:-"random greedy flat self"}
mkdir -p "$OUT"
# shellcheck source=tools/scripts/bin.sh
. tools/scripts/bin.sh
prepare_bin "$OUT"
ENGINE=$OUT/bin/luzhanqi
ARENA=$OUT/bin/arena
common=(--games "$GAMES" --concurrency "${CONCURRENCY:-2}" --seed 1)
mcts() { echo "name=$1" "cmd=$ENGINE" option.MoveOverhead=10 "${@:2}"; }
for v in $VARIANTS; do
  for line in $LINES; do
    case $line in
      random) a=$(mcts mcts); b=$(mcts random option.Player=random); limits=(--movetime 100) ;;
      greedy) a=$(mcts mcts); b=$(mcts greedy option.Player=greedy); limits=(--movetime 100) ;;
      flat) a=$(mcts mcts); b=$(mcts flat option.Player=flat); limits=(--movetime 200) ;;
      self) a=$(mcts mcts-400ms movetime=400); b=$(mcts mcts-100ms movetime=100); limits=() ;;
      quarter) a=$(mcts mcts movetime=100); b=$(mcts mcts-25ms movetime=25); limits=() ;;
      clock) a=$(mcts mcts-clock tc=10s+0.1s); b=$(mcts mcts-200ms movetime=200); limits=() ;;
      threads) a=$(mcts mcts-2-threads option.Threads=2); b=$(mcts mcts-1-thread); limits=(--movetime 100) ;;
      uniform) a=$(mcts mcts); b=$(mcts uniform-belief option.BeliefModel=uniform); limits=(--movetime 100) ;;
      setup) a=$(mcts mcts); b=$(mcts random-setup option.SetupStyle=random); limits=(--movetime 100) ;;
      expert) a=$(mcts mcts); b=$(mcts expert option.Player=expert); limits=(--movetime 100) ;;
    esac
    f="$OUT/$line-$v"
    # shellcheck disable=SC2086
    cmd=("$ARENA" --engine $a --engine $b --variant "$v" "${common[@]}" "${limits[@]}" --out "$f.ljr" --resume)
    echo "${cmd[*]}" > "$f.cmd"
    echo "$(date -u +%FT%TZ) start $line $v" >&2
    "${cmd[@]}" > "$f.txt.new"
    mv "$f.txt.new" "$f.txt"
  done
done
python3 tools/scripts/results-table.py "$OUT"
