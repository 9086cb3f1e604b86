#!/usr/bin/env bash
# The findings study (docs/findings.md): self-play of every seed variant (and chess, the
# calibration) at FINDINGS_NODES nodes per move, the statistics, the tuned piece values, the
# report, then the committed CSVs in data/findings/ and the tables of docs/findings.md.
#
# Usage: scripts/findings.sh BIN [OUT]     (make findings)
# Environment: FINDINGS_NODES (default 4000), FINDINGS_SEED (default 1), FINDINGS_OPENINGS
# (default balanced-plies:6), FINDINGS_SCALE
# (multiplies every variant's game count; default 1), FINDINGS_VARIANTS (default: all below).
#
# Resumable: a variant whose run folder exists is resumed (or extended) instead of replayed,
# so an interrupted `make findings` picks up where it stopped. Node-limited, so the same
# settings give the same games whatever the thread count.
set -euo pipefail
BIN=${1:?usage: findings.sh BIN [OUT]}
OUT=${2:-out/findings}
NODES=${FINDINGS_NODES:-4000}
SEED=${FINDINGS_SEED:-1}
# Balanced openings: random 6-ply lines redrawn until a short search scores them within ±1
# pawn (selfplay/src/run/openings.rs says why: plain random plies hand White a piece in a quarter
# of chess openings, and the first-move advantage measured is then the openings').
OPENINGS=${FINDINGS_OPENINGS:-balanced-plies:6}
SCALE=${FINDINGS_SCALE:-1}
DATA=data/findings

# Games per variant: sized so that each variant costs about the same (a Gateway game costs many
# chess games); the whole study took about 95 minutes on the 2-core machine at 4000 nodes per
# move with the engine of the commits its run.json files name. docs/findings.md says why these
# sizes.
declare -A GAMES=(
  [chess]=600
  [dream-chess-46]=1000
  [dialectic]=500
  [dialectic-hegelian]=500
  [extreme-2d]=600
  [gateway]=120
  [dai-mitregi]=160
  [dai-mitregi-stepping]=160
)
ORDER="chess dream-chess-46 dialectic dialectic-hegelian extreme-2d gateway dai-mitregi dai-mitregi-stepping"
VARIANTS=${FINDINGS_VARIANTS:-$ORDER}

mkdir -p "$OUT" "$DATA"
runs=()
values=()
for v in $VARIANTS; do
  [[ -n "${GAMES[$v]:-}" ]] || { echo "findings: unknown variant '$v' (one of: $ORDER)" >&2; exit 2; }
  games=$(( GAMES[$v] * SCALE ))
  dir="$OUT/$v"
  start=$(date +%s)
  if [[ -f "$dir/run.json" ]]; then
    "$BIN" play --resume "$dir" --games "$games" --quiet
  else
    "$BIN" play --variant "$v" --games "$games" --nodes "$NODES" --seed "$SEED" \
      --openings "$OPENINGS" --record-moves --out "$dir" --quiet
  fi
  # The values are refitted only when the games changed since they were estimated.
  if [[ ! "$OUT/values/$v/piece_values.csv" -nt "$dir/games.csv" ]]; then
    "$BIN" values --variant "$v" --method tuned --from "$dir" --seed "$SEED" \
      --out "$OUT/values/$v" --quiet --force
  fi
  echo "findings: $v done in $(( $(date +%s) - start )) s"
  runs+=("$dir")
  values+=("$OUT/values/$v/piece_values.csv")
done

"$BIN" stats "${runs[@]}" --out "$OUT"
"$BIN" report "${runs[@]}" --out "$OUT/report.html"

# The committed record: statistics, piece values and every game's row (moves.csv stays in
# $OUT: it is large, and the games replay from games.csv's seeds and settings).
cp "$OUT/balance.csv" "$OUT/length.csv" "$DATA/"
# Through a second file, so that a refused input leaves the committed piece_values.csv as it was.
python3 scripts/findings_tables.py csv "${values[@]}" > "$DATA/piece_values.csv.new"
mv "$DATA/piece_values.csv.new" "$DATA/piece_values.csv"
for d in "${runs[@]}"; do
  v=$(basename "$d")
  mkdir -p "$DATA/$v"
  cp "$d/games.csv" "$d/run.json" "$DATA/$v/"
done
python3 scripts/findings_tables.py markdown "$DATA" docs/findings.md
echo "findings: wrote $DATA/ and the tables of docs/findings.md; report in $OUT/report.html"
