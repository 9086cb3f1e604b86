#!/usr/bin/env bash
# make findings-check: every figure of docs/findings.md recomputed from the committed record in
# data/findings/ (scripts/findings_derive.sh into a scratch folder), then compared with the
# committed tables (ladder.csv, trend.csv, balance.csv, length.csv, usage.csv, diversity.csv,
# typical.csv, piece_values.csv, each rule alternatives' compare.csv and the trades' values.csv
# and combined.csv), the page
# and its plots. Fails, naming the file and showing the difference, when any differs.
#
# Usage: scripts/findings_check.sh BIN [--fast]
# --fast keeps the committed piece_values.csv instead of refitting it (seconds instead of about
# 20 minutes; `make test` runs this form, `make findings-check` the whole).
set -euo pipefail
BIN=${1:?usage: findings_check.sh BIN [--fast]}
FAST=${2:-}
DATA=${FINDINGS_DATA:-data/findings}
PAGE=${FINDINGS_PAGE:-docs/findings.md}
PLOTS=$(dirname "$PAGE")/findings
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

values=()
[[ "$FAST" == --fast ]] && values=(--no-values)
# A copy of the whole record (the page also reads the runs' games and moves), whose derived
# tables the derivation then replaces.
cp -r "$DATA" "$work/data"
scripts/findings_derive.sh "$BIN" "$DATA" "$work/data" "${values[@]}"
python3 scripts/findings.py page "$work/data" > "$work/page.md"
python3 scripts/findings.py plots "$work/data" "$work/plots"

status=0
differs() { # differs COMMITTED RECOMPUTED
  if ! cmp -s "$1" "$2"; then
    echo "findings-check: $1 differs from what $DATA gives:" >&2
    diff -u "$1" "$2" | head -20 >&2 || true
    status=1
  fi
}
for f in ladder.csv trend.csv balance.csv length.csv usage.csv diversity.csv typical.csv piece_values.csv \
  $(cd "$DATA" && ls alternatives/*/compare.csv trades/values.csv trades/combined.csv 2>/dev/null); do
  differs "$DATA/$f" "$work/data/$f"
done
differs "$PAGE" "$work/page.md"
for svg in "$work"/plots/*.svg; do
  differs "$PLOTS/$(basename "$svg")" "$svg"
done
if [[ $status -eq 0 ]]; then
  echo "findings-check: every figure of $PAGE and $DATA/ agrees with the record${FAST:+ (piece values not refitted)}"
fi
exit $status
