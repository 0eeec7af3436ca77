#!/usr/bin/env bash
# Regenerates the search results table of the README: the mcts player against
# random, greedy, flat Monte Carlo and itself with a quarter of the time, in
# flip and open, with the arena. Usage:
#   tools/scripts/search-results.sh [OUTDIR]        (GAMES=400 by default)
# Writes OUTDIR/<line>.txt (the arena's summary and JSON line), OUTDIR/<line>.ljr
# (the game records) and prints the Markdown table. Takes hours on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-results/search}
GAMES=${GAMES:-400}
VARIANTS=${VARIANTS:-"flip open"}
LINES=${LINES:-"random greedy flat self"}
mkdir -p "$OUT"
cargo build --release --quiet
# Copies, so that rebuilding during the hours this runs changes nothing.
mkdir -p "$OUT/bin"
cp target/release/luzhanqi target/release/arena "$OUT/bin/"
ENGINE=$OUT/bin/luzhanqi
ARENA=$OUT/bin/arena
common=(--games "$GAMES" --concurrency 2 --seed 1)
mcts() { echo "name=$1" "cmd=$ENGINE" option.MoveOverhead=10 "${@:2}"; }
for v in $VARIANTS; do
  for line in $LINES; do
    case $line in
      random) a=$(mcts mcts); b=$(mcts random option.Player=random); limits=(--movetime 100) ;;
      greedy) a=$(mcts mcts); b=$(mcts greedy option.Player=greedy); limits=(--movetime 100) ;;
      flat) a=$(mcts mcts); b=$(mcts flat option.Player=flat); limits=(--movetime 200) ;;
      self) a=$(mcts mcts-400ms movetime=400); b=$(mcts mcts-100ms movetime=100); limits=() ;;
    esac
    f="$OUT/$line-$v"
    # shellcheck disable=SC2086
    cmd=("$ARENA" --engine $a --engine $b --variant "$v" "${common[@]}" "${limits[@]}" --out "$f.ljr")
    echo "${cmd[*]}" > "$f.cmd"
    echo "$(date -u +%FT%TZ) start $line $v" >&2
    "${cmd[@]}" > "$f.txt"
  done
done
python3 tools/scripts/results-table.py "$OUT"
