#!/usr/bin/env bash
# The seed variants' rule alternatives compared (issue 55; docs/findings.md, "Rule
# alternatives"): each base variant and its alternatives played by variantlab at the same node
# count, with the same openings settings and seed; their record (run.json, games.csv,
# compressed moves) in data/findings/alternatives/SET/NAME/, the base first in SET/order.txt;
# then scripts/findings_derive.sh writes each SET's compare.csv (`variantlab compare` of the
# alternatives against the base) and the page is rendered again.
#
# Usage: scripts/alternatives.sh BIN [OUT]     (make alternatives)
# Environment: ALTERNATIVES_NODES (default 4000: the top level of the findings ladder that fits
# the budget), ALTERNATIVES_GAMES (default 1000 per variant), ALTERNATIVES_SETS (default: all
# below).
#
# Resumable: a run folder that exists is resumed or extended. Node-limited, so the games are the
# same on any machine and thread count.
set -euo pipefail
BIN=${1:?usage: alternatives.sh BIN [OUT]}
OUT=${2:-out/alternatives}
NODES=${ALTERNATIVES_NODES:-4000}
GAMES=${ALTERNATIVES_GAMES:-1000}
SEED=1
OPENINGS=balanced-plies:6
DATA=data/findings

# Each set: the base variant first, then its alternatives, as NAME or NAME=VARIANT_FILE.
declare -A SETS=(
  [dream]="dream-chess-46 dream-46-queen-back=docs/examples/dream-46-queen-back.toml dream-46-queen-edge=docs/examples/dream-46-queen-edge.toml"
  [dialectic]="dialectic dialectic-hegelian"
  [dai-mitregi]="dai-mitregi dai-mitregi-stepping"
  [extreme2d]="extreme-2d extreme-2d-simple"
)
SETS_RUN=${ALTERNATIVES_SETS:-dream dialectic dai-mitregi extreme2d}

for set in $SETS_RUN; do
  [[ -n "${SETS[$set]:-}" ]] || { echo "alternatives: unknown set '$set'" >&2; exit 2; }
  dest=$DATA/alternatives/$set
  mkdir -p "$dest"
  : > "$dest/order.txt.new"
  for entry in ${SETS[$set]}; do
    name=${entry%%=*}
    file=()
    [[ "$entry" == *=* ]] && file=(--variant-file "${entry#*=}")
    dir=$OUT/$set/$name
    start=$(date +%s)
    if [[ -f "$dir/run.json" ]]; then
      "$BIN" play --resume "$dir" --games "$GAMES" --quiet
    else
      "$BIN" play "${file[@]}" --variant "$name" --nodes "$NODES" --games "$GAMES" \
        --seed "$SEED" --openings "$OPENINGS" --record-moves --out "$dir" --quiet
    fi
    mkdir -p "$dest/$name"
    if [[ ! "$dest/$name/games.csv" -nt "$dir/games.csv" ]]; then
      cp "$dir/run.json" "$dir/games.csv" "$dest/$name/"
      python3 scripts/findings.py compress "$dir/moves.csv" "$dest/$name/moves.csv.xz"
    fi
    echo "$name" >> "$dest/order.txt.new"
    echo "alternatives: $set/$name at $NODES nodes done in $(( $(date +%s) - start )) s"
  done
  mv "$dest/order.txt.new" "$dest/order.txt"
done

# The comparisons from the record alone (what `make findings-check` recomputes), then the page.
scripts/findings_derive.sh "$BIN" "$DATA" "$DATA" --no-values
python3 scripts/findings.py page "$DATA" > docs/findings.md.new
mv docs/findings.md.new docs/findings.md
echo "alternatives: wrote $DATA/alternatives/ and docs/findings.md"
