#!/usr/bin/env bash
# What each technique of the tree search adds: the mcts player against the
# same search with one technique switched off (the SearchParams option), at
# a fixed number of iterations per move, in flip and open. Usage:
#   tools/scripts/ablation.sh [OUTDIR]     (GAMES=200, NODES=3000, CONCURRENCY=1)
# Resumable like search-results.sh (the arena's --resume).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-results/ablation}
GAMES=${GAMES:-200}
NODES=${NODES:-3000}
VARIANTS=${VARIANTS:-"flip open"}
TECHNIQUES=${TECHNIQUES:-"priors solver"}
mkdir -p "$OUT"
# shellcheck source=tools/scripts/bin.sh
. tools/scripts/bin.sh
prepare_bin "$OUT"
for v in $VARIANTS; do
  for t in $TECHNIQUES; do
    case $t in
      priors) off="priors=false" ;;
      solver) off="solver=false" ;;
      fpu) off="fpu=0.3" ;;
      playout) off="playout=6" ;;
      *) off="$t" ;;
    esac
    f="$OUT/$t-$v"
    cmd=("$OUT/bin/arena" --engine name=mcts "cmd=$OUT/bin/luzhanqi"
         --engine "name=without-$t" "cmd=$OUT/bin/luzhanqi" "option.SearchParams=$off"
         --variant "$v" --games "$GAMES" --concurrency "${CONCURRENCY:-1}" --nodes "$NODES" --seed 1
         --out "$f.ljr" --resume)
    echo "${cmd[*]}" > "$f.cmd"
    "${cmd[@]}" > "$f.txt.new"
    mv "$f.txt.new" "$f.txt"
    grep -E "^Score:" "$f.txt" | sed "s/^/$t $v: /"
  done
done
