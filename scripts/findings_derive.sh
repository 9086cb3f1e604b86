#!/usr/bin/env bash
# The figures of the findings from the committed record alone: for every run in RECORD
# (data/findings/VARIANT/RUN/ with run.json, games.csv and moves.csv.xz), the statistics
# (balance.csv, length.csv, ladder.csv, trend.csv, usage.csv, diversity.csv, typical.csv) and the
# tuned piece values (piece_values.csv), each run's leading values then added to ladder.csv, and
# each set of rule alternatives' compare.csv (RECORD/alternatives/SET/); written to DEST.
#
# Then the piece values priced by trades (scripts/trade_values.sh): each run of
# RECORD/trades/VARIANT/nodes-N/seed-S/ fitted by `values --method balanced --phases` into
# DEST/trades/values.csv (one row per run, method and piece: the whole game, its middle and its
# end; the tempo row included), and the seeds of each variant, level and method combined into
# DEST/trades/combined.csv (scripts/findings.py trades).
#
# Usage: scripts/findings_derive.sh BIN RECORD DEST [--no-values | --trades-only]
# --no-values takes piece_values.csv and trades/values.csv from RECORD instead of refitting them
# (the refit is most of the cost: about 20 minutes on 2 cores); `make findings-check` refits,
# the fast check in `make test` does not. --trades-only derives the trades' tables alone
# (refitted) and leaves the others as they are (scripts/trade_values.sh).
# FINDINGS_VALUES_CACHE=DIR keeps each run's fit in DIR and reuses it while it is newer than the
# run's games.csv (make findings: out/findings/values).
set -euo pipefail
# `fit` runs in command substitutions: a failed fit must stop the derivation there too.
shopt -s inherit_errexit
BIN=${1:?usage: findings_derive.sh BIN RECORD DEST [--no-values]}
RECORD=${2:?record folder}
DEST=${3:?destination folder}
VALUES=${4:-}
SEED=${FINDINGS_SEED:-1}
[[ "$BIN" == */* ]] && BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
# The unit of the piece values where the cheapest kind is too small to divide by
# (docs/piece-values.md); the pawn, or the cheapest kind, elsewhere.
declare -A UNIT=([extreme-2d]=red [dai-mitregi]=rook [dai-mitregi-stepping]=rook)

RECORD=$(cd "$RECORD" && pwd)
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cache=${FINDINGS_VALUES_CACHE:-$work/values}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# unpack SRC REL: the record's run SRC as a run folder again in $work/REL (moves decompressed).
unpack() {
  mkdir -p "$work/$2"
  cp "$1/run.json" "$1/games.csv" "$work/$2/"
  python3 "$(dirname "$0")/findings.py" decompress "$1/moves.csv.xz" "$work/$2/moves.csv"
}

# fit REL VARIANT VALUES-ARGS...: `values` of the record's run REL into $cache/REL (in the
# variant's unit), unless the cache's fit is newer than the run's games; the run is unpacked
# only when it is fitted. Prints the `findings.py values` argument REL=CSV.
fit() {
  local rel=$1 v=$2 unit=()
  shift 2
  [[ -n "${UNIT[$v]:-}" ]] && unit=(--unit "${UNIT[$v]}")
  if [[ ! "$cache/$rel/piece_values.csv" -nt "$RECORD/$rel/games.csv" ]]; then
    echo "findings: piece values of $rel ..." >&2
    [[ -f "$work/$rel/moves.csv" ]] || unpack "$RECORD/$rel" "$rel"
    (cd "$work" && "$BIN" values --variant "$v" --from "$rel" "$@" "${unit[@]}" \
      --out "$cache/$rel" --quiet --force >/dev/null)
  fi
  echo "$rel=$cache/$rel/piece_values.csv"
}

# trades: the trades' tables (see above), refitted unless --no-values.
trades() {
  local json rel v tables=()
  [[ -d "$RECORD/trades" ]] || return 0
  mkdir -p "$DEST/trades"
  if [[ "$VALUES" == --no-values ]]; then
    # Nothing derived yet (runs still being played): nothing to take.
    [[ -f "$RECORD/trades/values.csv" ]] || return 0
    [[ "$RECORD" == "$DEST" ]] || cp "$RECORD/trades/values.csv" "$DEST/trades/"
  else
    for json in "$RECORD"/trades/*/nodes-*/seed-*/run.json; do
      [[ -f "$json" ]] || continue
      rel=${json#"$RECORD"/}
      rel=${rel%/run.json}
      v=${rel#trades/}
      tables+=("$(fit "$rel" "${v%%/*}" --method balanced --phases)")
    done
    [[ ${#tables[@]} -gt 0 ]] || return 0
    python3 "$(dirname "$0")/findings.py" values "${tables[@]}" > "$work/trade_values.csv"
    cp "$work/trade_values.csv" "$DEST/trades/values.csv"
  fi
  python3 "$(dirname "$0")/findings.py" trades "$DEST"
}
if [[ "$VALUES" == --trades-only ]]; then
  VALUES=
  trades
  exit 0
fi

# Each run as a run folder again, named VARIANT/RUN relative to $work so that the `run` column
# of the statistics is the same wherever the record lies.
runs=()
for json in "$RECORD"/*/*/run.json; do
  rel=${json#"$RECORD"/}
  rel=${rel%/run.json}
  unpack "$RECORD/$rel" "$rel"
  runs+=("$rel")
done
[[ ${#runs[@]} -gt 0 ]] || { echo "findings_derive: no runs in $RECORD" >&2; exit 2; }

(cd "$work" && "$BIN" stats "${runs[@]}" --out "$work/stats" >/dev/null)
for f in balance.csv length.csv ladder.csv trend.csv usage.csv diversity.csv typical.csv; do cp "$work/stats/$f" "$DEST/"; done

if [[ "$VALUES" == --no-values ]]; then
  [[ "$RECORD" == "$DEST" ]] || cp "$RECORD/piece_values.csv" "$DEST/"
else
  tables=()
  for rel in "${runs[@]}"; do
    tables+=("$(fit "$rel" "${rel%%/*}" --method tuned --seed "$SEED")")
  done
  python3 "$(dirname "$0")/findings.py" values "${tables[@]}" > "$work/piece_values.csv"
  cp "$work/piece_values.csv" "$DEST/"
fi
python3 "$(dirname "$0")/findings.py" ladder "$DEST"

# The rule alternatives (scripts/alternatives.sh): RECORD/alternatives/SET/NAME/ are runs of a
# base variant and its alternatives (the base listed first in SET/order.txt); each SET's
# compare.csv is `variantlab compare` of each alternative against the base, run from the
# scratch folder so that its paths are SET/NAME wherever the record lies.
for order in "$RECORD"/alternatives/*/order.txt; do
  [[ -f "$order" ]] || continue
  set=$(basename "$(dirname "$order")")
  alts=()
  while read -r name; do
    [[ -n "$name" ]] || continue
    unpack "$RECORD/alternatives/$set/$name" "alternatives/$set/$name"
    alts+=("$set/$name")
  done < "$order"
  # Every alternative against the base in one `compare` (a process holds up to three
  # variant files, each alternative's definition read from its run.json).
  mkdir -p "$DEST/alternatives/$set"
  (cd "$work/alternatives" && "$BIN" compare "${alts[@]}" --out "$work/alternatives/$set/compare" >/dev/null)
  cp "$work/alternatives/$set/compare/compare.csv" "$DEST/alternatives/$set/compare.csv"
done

trades
