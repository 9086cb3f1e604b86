#!/usr/bin/env bash
# The worked example of docs/variant-files.md: a changed Dream Chess 46 array studied against
# the original (docs/examples/dream-46-queen-back.toml), its balance.csv and run.json files
# committed in data/variant-example/, and the page's figures written from them.
#
# Usage: scripts/variant_example.sh BIN [OUT]     (make variant-example; about 20 s on 2 cores)
#
# Node-limited, so the same settings give the same games whatever the thread count; a study
# already in OUT with the same settings is resumed, not replayed.
set -euo pipefail
BIN=${1:?usage: variant_example.sh BIN [OUT]}
OUT=${2:-out/variant-example}
DATA=data/variant-example
VARIANTS=dream-chess-46,dream-46-queen-back

"$BIN" study --variant-file docs/examples/dream-46-queen-back.toml \
  --variants "$VARIANTS" --games 40 --out "$OUT" --quiet
mkdir -p "$DATA"
cp "$OUT/balance.csv" "$DATA/"
for v in ${VARIANTS//,/ }; do
  mkdir -p "$DATA/$v"
  cp "$OUT/$v/run.json" "$OUT/$v/games.csv" "$DATA/$v/"
done
python3 scripts/variant_example.py "$DATA" docs/variant-files.md
echo "variant-example: wrote $DATA/ and the example's figures in docs/variant-files.md"
