#!/usr/bin/env bash
# The cost of the findings study, measured: a few games of every variant at every level of the
# ladder, one thread, timed in CPU seconds (so that other work on the machine does not inflate
# it, as it inflates games.csv's wall_ms); written to data/findings/cost.csv, from which
# docs/findings.md estimates each run's cost from its plies.
#
# Usage: scripts/findings_cost.sh BIN [GAMES]     (GAMES per variant and level, default 4)
set -euo pipefail
BIN=${1:?usage: findings_cost.sh BIN [GAMES]}
GAMES=${2:-4}
LEVELS=${FINDINGS_LEVELS:-1000 4000 16000}
VARIANTS="chess dream-chess-46 dialectic dialectic-hegelian extreme-2d gateway dai-mitregi dai-mitregi-stepping"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=data/findings/cost.csv
{
  echo "variant,nodes,games,plies,cpu_seconds,cpu"
  cpu=$(grep -m1 "model name" /proc/cpuinfo | sed 's/.*: //; s/,/ /g' || echo unknown)
  for v in $VARIANTS; do
    for n in $LEVELS; do
      dir="$work/$v-$n"
      s=$( { /usr/bin/time -f "%U %S" "$BIN" play --variant "$v" --games "$GAMES" --nodes "$n" \
        --seed 1 --openings balanced-plies:6 --threads 1 --out "$dir" --quiet >/dev/null; } 2>&1 | tail -1)
      plies=$(python3 -c "import csv,sys; print(sum(int(r['plies']) for r in csv.DictReader(open(sys.argv[1]))))" "$dir/games.csv")
      echo "$v,$n,$GAMES,$plies,$(echo "$s" | awk '{printf "%.2f", $1 + $2}'),$cpu"
    done
  done
} > "$out.new"
mv "$out.new" "$out"
echo "wrote $out"
