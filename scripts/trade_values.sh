#!/usr/bin/env bash
# Piece values priced by trades at two strengths (issue 55; docs/findings.md, "Piece values
# priced by trades"): each variant played by variantlab from `trades:6` openings (a near-even
# trade made at the start, selfplay/src/run/openings.rs) at a low and a high level of the
# findings ladder, with independent seeds; each run's record (run.json, games.csv, compressed
# moves) in data/findings/trades/VARIANT/nodes-N/seed-S/. scripts/findings_derive.sh then fits
# each run's `balanced` values and combines the seeds of a variant and level (the interval is
# Student's t over the seeds: independent replicates, not bootstrap ones), and the page is
# rendered again.
#
# Usage: scripts/trade_values.sh BIN [OUT]     (make trade-values)
# Environment: TRADES_VARIANTS (default "chess dream-chess-46"), TRADES_LEVELS (default
# "1000 4000"), TRADES_SEEDS (default "1 2 3 4 5"), TRADES_SCALE (multiplies the games per run).
#
# Resumable: a run that is recorded is skipped, one that was started is resumed; a run enters the
# record only when all its games are played. Node-limited, so the games are the same on any
# machine and thread count.
set -euo pipefail
BIN=${1:?usage: trade_values.sh BIN [OUT]}
OUT=${2:-out/trades}
VARIANTS=${TRADES_VARIANTS:-chess dream-chess-46}
LEVELS=${TRADES_LEVELS:-1000 4000}
SEEDS=${TRADES_SEEDS:-1 2 3 4 5}
SCALE=${TRADES_SCALE:-1}
OPENINGS=trades:6
DATA=data/findings/trades

# Games per run (one variant, level and seed), sized by each variant's cost (data/findings/cost.csv).
declare -A GAMES=(
  [chess]=600
  [dream-chess-46]=600
  [extreme-2d]=300
  [dialectic]=200
  [dialectic-hegelian]=200
  [dai-mitregi]=200
  [dai-mitregi-stepping]=200
  [gateway]=60
)

for v in $VARIANTS; do
  [[ -n "${GAMES[$v]:-}" ]] || { echo "trade_values: unknown variant '$v'" >&2; exit 2; }
  games=$(( GAMES[$v] * SCALE ))
  for n in $LEVELS; do
    for s in $SEEDS; do
      rel=$v/nodes-$n/seed-$s
      dir=$OUT/$rel dest=$DATA/$rel
      if [[ -f "$dest/games.csv" ]] && [[ $(( $(wc -l < "$dest/games.csv") - 1 )) -ge $games ]]; then
        continue
      fi
      start=$(date +%s)
      if [[ -f "$dir/run.json" ]]; then
        "$BIN" play --resume "$dir" --games "$games" --quiet
      else
        "$BIN" play --variant "$v" --nodes "$n" --games "$games" --seed "$s" \
          --openings "$OPENINGS" --record-moves --out "$dir" --quiet
      fi
      mkdir -p "$dest"
      cp "$dir/run.json" "$dir/games.csv" "$dest/"
      python3 scripts/findings.py compress "$dir/moves.csv" "$dest/moves.csv.xz"
      echo "trade_values: $rel done in $(( $(date +%s) - start )) s"
    done
  done
done

# The values from the record alone (what `make findings-check` recomputes), then the page.
scripts/findings_derive.sh "$BIN" data/findings data/findings --trades-only
python3 scripts/findings.py page data/findings > docs/findings.md.new
mv docs/findings.md.new docs/findings.md
echo "trade_values: wrote $DATA/ and docs/findings.md"
